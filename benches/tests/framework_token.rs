//! What the token-record tests of the frameworks with one account type
//! (typhoon, Steel, star_frame, Hopper) share: loading the framework's
//! programs, a call held to an outcome, the exact bytes after each write,
//! an account owned by another program, and the hostile run. Each
//! framework's file keeps its own refusals.

use benches::{
    Case, Family, Input, Program, Workspace, frameworks::Oracle, hostile, token::fixture,
    vm::LoggedMollusk,
};
use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use mollusk_svm::Mollusk;
use proptest::prelude::*;
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

/// What a call is to give: the account's bytes after it, or the error.
pub type Outcome = Result<Vec<u8>, ProgramError>;

/// One labelled call of a refusals table.
pub type Call<'a> = (&'a str, Input, Outcome);

/// Another owner key than the fixture's.
pub const WRONG_KEY: [u8; 32] = [0x77; 32];

/// How a framework lays the token record out and calls it.
pub struct Layout {
    pub oracle: &'static Oracle,
    /// The bytes before the record (a discriminator or a header).
    pub before_record: usize,
    /// The account's data: what goes before the record, then `raw`.
    pub account: fn(&[u8]) -> Vec<u8>,
    /// The benchmark call of an operation.
    pub valid_input: fn(Operation) -> Input,
}

impl Layout {
    pub fn load(&self) -> (Vec<Program>, Mollusk) {
        Workspace::current()
            .load_framework(self.oracle.framework(), Family::Token)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

/// The framework's token program (not its floor).
pub fn token_program(programs: &[Program]) -> &Program {
    programs.iter().find(|p| p.name == "token/account").unwrap()
}

/// Runs `input` as `label`, once the oracle is known to give `want`: the
/// program must give it too, with every account unchanged on an error.
pub fn assert_outcome(
    mollusk: &Mollusk,
    program: &Program,
    label: &str,
    input: &Input,
    want: Result<Vec<u8>, ProgramError>,
) -> Result<(), String> {
    Case::expecting(program, label, input, want)?
        .run(mollusk)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Runs each labelled input of `op` with its outcome; every failure's
/// message into `failures`.
pub fn run_all(
    mollusk: &Mollusk,
    program: &Program,
    op: Operation,
    cases: Vec<Call>,
    failures: &mut Vec<String>,
) {
    for (label, input, want) in cases {
        let label = format!("{} ({label})", op.name());
        if let Err(e) = assert_outcome(mollusk, program, &label, &input, want) {
            failures.push(e);
        }
    }
}

/// `full` and `update_amount` write exactly `state` (record offset 104)
/// and `amount` (64..72); `read_owner` nothing; written out by hand.
pub fn writes_exactly_state_and_amount(layout: &Layout) {
    let (programs, mollusk) = layout.load();
    let account = token_program(&programs);
    let at = layout.before_record;
    let before = (layout.account)(&fixture());
    let mut after = before.clone();
    after[at + 64..at + 72].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    after[at + 104] = NEW_STATE;
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let want = if op.writes() {
            after.clone()
        } else {
            before.clone()
        };
        let input = (layout.valid_input)(op);
        assert_eq!(input.data, before);
        if let Err(e) = assert_outcome(&mollusk, account, op.name(), &input, Ok(want)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The two calls every framework answers by the operation: account [0]
/// read-only (`read_only` for a write, nothing for `read_owner`), and
/// another owner key (`wrong_owner` where the operation checks it;
/// `update_amount` does not, and writes as before).
pub fn read_only_and_owner(
    op: Operation,
    valid: &Input,
    written: &[u8],
    read_only: ProgramError,
    wrong_owner: ProgramError,
) -> [Call<'static>; 2] {
    let read_only_input = valid.with(|i| i.writable = false);
    let owner_input = valid.with(|i| i.owner_key = WRONG_KEY);
    [
        if op.writes() {
            ("account [0] read-only", read_only_input, Err(read_only))
        } else {
            (
                "account [0] read-only",
                read_only_input,
                Ok(valid.data.clone()),
            )
        },
        if op == Operation::UpdateAmount {
            (
                "another owner key (not checked)",
                owner_input,
                Ok(written.to_vec()),
            )
        } else {
            ("another owner key", owner_input, Err(wrong_owner))
        },
    ]
}

/// `op`'s valid call with account [0] owned by another program: `want`.
pub fn foreign_owner(
    mollusk: &Mollusk,
    program: &Program,
    op: Operation,
    valid: &Input,
    want: ProgramError,
) -> Result<(), String> {
    let mut case = Case::with_outcome(program, op.name(), valid, Err(want));
    case.accounts[0].1.owner = Pubkey::new_from_array([0x55; 32]);
    case.run(mollusk)
        .map(|_| ())
        .map_err(|e| format!("{} (account owned by another program): {e}", op.name()))
}

/// 2,000 random and hostile inputs per program (the floor too): the
/// instruction data (`instruction_data`), the account count, the writable
/// flag, the owner, and records behind what goes before them, damaged by
/// the hostile generator or not; what a write left, `full` reads and
/// writes again.
pub fn hostile_input_meets_the_contract(
    layout: &Layout,
    instruction_data: impl Strategy<Value = Vec<u8>> + Clone,
) {
    let (programs, mollusk) = layout.load();
    let at = layout.before_record;
    let valid_input = layout.valid_input;
    hostile::framework_token_programs(
        &programs,
        &LoggedMollusk::new(mollusk),
        2_000,
        layout.account,
        instruction_data,
        |after| {
            let mut again = valid_input(Operation::Full);
            again.data = after.to_vec();
            again.owner_key = after[at + 32..at + 64].try_into().unwrap();
            again
        },
    );
}
