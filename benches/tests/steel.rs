//! The Steel programs (programs/steel/) against Steel's contract
//! (benches/src/frameworks/steel.rs): the exact bytes after each write,
//! each error on an input made for it with every account unchanged, and
//! random or hostile input, never a fault, never a change before a
//! failure.

use benches::{
    Case, Family, Framework, Input, Program, Workspace,
    frameworks::steel::{self, READ_ONLY_WRITE},
    hostile,
    token::fixture,
    vm::LoggedMollusk,
};
use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use mollusk_svm::Mollusk;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

const WRONG_KEY: [u8; 32] = [0x77; 32];

fn load() -> (Vec<Program>, Mollusk) {
    Workspace::current()
        .load_framework(Framework::Steel, Family::Token)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `input` as `label`, once the oracle is known to give `want`: the
/// program must give it too, with every account unchanged on an error.
fn assert_outcome(
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

/// `full` and `update_amount` write exactly `state` (8 + 104) and
/// `amount` (8 + 64..72); `read_owner` nothing; written out by hand, the
/// discriminator its byte and seven zeros.
#[test]
fn writes_exactly_state_and_amount() {
    let (programs, mollusk) = load();
    let account = programs.iter().find(|p| p.name == "token/account").unwrap();
    let before = steel::account(&fixture());
    assert_eq!(before[..8], [1, 0, 0, 0, 0, 0, 0, 0]);
    let mut after = before.clone();
    after[8 + 64..8 + 72].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    after[8 + 104] = NEW_STATE;
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let want = if op.writes() {
            after.clone()
        } else {
            before.clone()
        };
        let input = steel::valid_input(op);
        assert_eq!(input.data, before);
        if let Err(e) = assert_outcome(&mollusk, account, op.name(), &input, Ok(want)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each of Steel's refusals on an input made for it, and what it accepts
/// (another owner where none is checked, the discriminator's seven bytes
/// Steel does not read).
#[test]
fn errors_are_steels_and_change_nothing() {
    let (programs, mollusk) = load();
    let account = programs.iter().find(|p| p.name == "token/account").unwrap();
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let valid = steel::valid_input(op);
        let written = steel::expected(account, &valid).unwrap();
        let refused = Err(ProgramError::InvalidAccountData);
        let mut cases = vec![
            (
                "no instruction data",
                valid.with(|i| i.instruction_data.clear()),
                Err(ProgramError::InvalidInstructionData),
            ),
            (
                "an unknown op byte",
                valid.with(|i| i.instruction_data = vec![3]),
                Err(ProgramError::InvalidInstructionData),
            ),
            (
                "one account",
                valid.with(|i| i.account_count = 1),
                Err(ProgramError::NotEnoughAccountKeys),
            ),
            ("no data", valid.with(|i| i.data.clear()), refused.clone()),
            (
                "7 bytes of data",
                valid.with(|i| i.data.truncate(7)),
                refused.clone(),
            ),
            (
                "another discriminator",
                valid.with(|i| i.data[0] = 2),
                refused.clone(),
            ),
            (
                "a record one byte short",
                valid.with(|i| i.data.truncate(8 + 159)),
                refused.clone(),
            ),
            (
                "a longer account",
                valid.with(|i| i.data.push(0)),
                refused.clone(),
            ),
            (
                "the discriminator's other bytes (not read)",
                valid.with(|i| i.data[1..8].fill(0xee)),
                Ok({
                    let mut w = written.clone();
                    w[1..8].fill(0xee);
                    w
                }),
            ),
        ];
        cases.push(if op.writes() {
            (
                "account [0] read-only",
                valid.with(|i| i.writable = false),
                Err(READ_ONLY_WRITE),
            )
        } else {
            (
                "account [0] read-only",
                valid.with(|i| i.writable = false),
                Ok(valid.data.clone()),
            )
        });
        cases.push(if op == Operation::UpdateAmount {
            (
                "another owner key (not checked)",
                valid.with(|i| i.owner_key = WRONG_KEY),
                Ok(written.clone()),
            )
        } else {
            (
                "another owner key",
                valid.with(|i| i.owner_key = WRONG_KEY),
                refused.clone(),
            )
        });
        for (label, input, want) in cases {
            let label = format!("{} ({label})", op.name());
            if let Err(e) = assert_outcome(&mollusk, account, &label, &input, want) {
                failures.push(e);
            }
        }
        // An account another program owns: `as_account`'s owner check.
        let mut case = Case::with_outcome(
            account,
            op.name(),
            &valid,
            Err(ProgramError::InvalidAccountOwner),
        );
        case.accounts[0].1.owner = Pubkey::new_from_array([0x55; 32]);
        if let Err(e) = case.run(&mollusk) {
            failures.push(format!(
                "{} (account owned by another program): {e}",
                op.name()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 2,000 random and hostile inputs per program (the floor too): the op
/// byte, the account count, the writable flag, the owner, and records
/// behind the discriminator, damaged by the hostile generator or not.
#[test]
fn hostile_input_meets_the_contract() {
    let (programs, mollusk) = load();
    let op = prop_oneof![8 => 0..=2u8, 1 => any::<u8>()].prop_map(|op| vec![op]);
    let instruction_data = prop_oneof![9 => op, 1 => vec(any::<u8>(), 0..3)];
    hostile::framework_token_programs(
        &programs,
        &LoggedMollusk::new(mollusk),
        2_000,
        steel::account,
        instruction_data,
        |after| {
            // What a write left, `full` reads and writes again.
            let mut again = steel::valid_input(Operation::Full);
            again.data = after.to_vec();
            again.owner_key = after[8 + 32..8 + 64].try_into().unwrap();
            again
        },
    );
}
