//! The star_frame programs (programs/star_frame/) against star_frame's
//! contract (benches/src/frameworks/star_frame.rs): the exact bytes after
//! each write, each error on an input made for it with every account
//! unchanged, and random or hostile input, never a fault, never a change
//! before a failure.

use benches::{
    Case, Family, Framework, Input, Program, Workspace,
    frameworks::star_frame::{
        self, ADVANCE_ERROR, DISCRIMINANT_MISMATCH, EXPECTED_WRITABLE, RAW_SLICE_ADVANCE,
        instruction,
    },
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
        .load_framework(Framework::StarFrame, Family::Token)
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
/// `amount` (8 + 64..72); `read_owner` nothing; written out by hand.
#[test]
fn writes_exactly_state_and_amount() {
    let (programs, mollusk) = load();
    let account = programs.iter().find(|p| p.name == "token/account").unwrap();
    let before = star_frame::account(&fixture());
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
        let input = star_frame::valid_input(op);
        assert_eq!(input.data, before);
        if let Err(e) = assert_outcome(&mollusk, account, op.name(), &input, Ok(want)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each of star_frame's refusals on an input made for it, and what it
/// accepts (a longer account, another owner where none is checked).
#[test]
fn errors_are_star_frames_and_change_nothing() {
    let (programs, mollusk) = load();
    let account = programs.iter().find(|p| p.name == "token/account").unwrap();
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let valid = star_frame::valid_input(op);
        let written = star_frame::expected(account, &valid).unwrap();
        let mut cases = vec![
            (
                "no instruction data",
                valid.with(|i| i.instruction_data.clear()),
                Err(ADVANCE_ERROR),
            ),
            (
                "7 bytes of instruction data",
                valid.with(|i| i.instruction_data.truncate(7)),
                Err(ADVANCE_ERROR),
            ),
            (
                "the family's op byte",
                valid.with(|i| i.instruction_data = vec![op as u8]),
                Err(ADVANCE_ERROR),
            ),
            (
                "an unknown discriminant",
                valid.with(|i| i.instruction_data[0] ^= 1),
                Err(ProgramError::InvalidInstructionData),
            ),
            (
                "one account",
                valid.with(|i| i.account_count = 1),
                Err(ADVANCE_ERROR),
            ),
            (
                "no data",
                valid.with(|i| i.data.clear()),
                Err(ProgramError::AccountDataTooSmall),
            ),
            (
                "7 bytes of data",
                valid.with(|i| i.data.truncate(7)),
                Err(ProgramError::AccountDataTooSmall),
            ),
            (
                "another discriminant",
                valid.with(|i| i.data[0] ^= 1),
                Err(DISCRIMINANT_MISMATCH),
            ),
            (
                "a record one byte short",
                valid.with(|i| i.data.truncate(8 + 159)),
                Err(RAW_SLICE_ADVANCE),
            ),
            (
                "a longer account (accepted)",
                valid.with(|i| i.data.push(0)),
                Ok([&written[..], &[0]].concat()),
            ),
        ];
        cases.push(if op.writes() {
            (
                "account [0] read-only",
                valid.with(|i| i.writable = false),
                Err(EXPECTED_WRITABLE),
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
                Err(ProgramError::IncorrectAuthority),
            )
        });
        for (label, input, want) in cases {
            let label = format!("{} ({label})", op.name());
            if let Err(e) = assert_outcome(&mollusk, account, &label, &input, want) {
                failures.push(e);
            }
        }
        // An account another program owns: `Account<T>`'s owner check.
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

/// 2,000 random and hostile inputs per program (the floor too): the
/// discriminant, the account count, the writable flag, the owner, and
/// records behind the discriminant, damaged by the hostile generator or
/// not.
#[test]
fn hostile_input_meets_the_contract() {
    let (programs, mollusk) = load();
    let known = prop::sample::select(Operation::ALL.to_vec()).prop_map(instruction);
    let instruction_data = prop_oneof![8 => known, 2 => vec(any::<u8>(), 0..12)];
    hostile::framework_token_programs(
        &programs,
        &LoggedMollusk::new(mollusk),
        2_000,
        star_frame::account,
        instruction_data,
        |after| {
            // What a write left, `full` reads and writes again.
            let mut again = star_frame::valid_input(Operation::Full);
            again.data = after.to_vec();
            again.owner_key = after[8 + 32..8 + 64].try_into().unwrap();
            again
        },
    );
}
