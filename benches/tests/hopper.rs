//! The Hopper programs (programs/hopper/) against Hopper's contract
//! (benches/src/frameworks/hopper.rs): the exact bytes after each write,
//! each error on an input made for it with every account unchanged, and
//! random or hostile input, never a fault, never a change before a
//! failure.

use benches::{
    Case, Family, Framework, Input, Program, Workspace, frameworks::hopper, hostile,
    token::fixture, vm::LoggedMollusk,
};
use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use mollusk_svm::Mollusk;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

const WRONG_KEY: [u8; 32] = [0x77; 32];

fn load() -> (Vec<Program>, Mollusk) {
    Workspace::current()
        .load_framework(Framework::Hopper, Family::Token)
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

/// `full` and `update_amount` write exactly `state` (16 + 104) and
/// `amount` (16 + 64..72); `read_owner` nothing; written out by hand.
#[test]
fn writes_exactly_state_and_amount() {
    let (programs, mollusk) = load();
    let account = programs.iter().find(|p| p.name == "token/account").unwrap();
    let before = hopper::account(&fixture());
    let mut after = before.clone();
    after[16 + 64..16 + 72].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    after[16 + 104] = NEW_STATE;
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let want = if op.writes() {
            after.clone()
        } else {
            before.clone()
        };
        let input = hopper::valid_input(op);
        assert_eq!(input.data, before);
        if let Err(e) = assert_outcome(&mollusk, account, op.name(), &input, Ok(want)) {
            failures.push(e);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each of Hopper's refusals on an input made for it, and what it accepts
/// (a longer account, the flags, the legacy schema epoch 0, another owner
/// where none is checked).
#[test]
fn errors_are_hoppers_and_change_nothing() {
    let (programs, mollusk) = load();
    let account = programs.iter().find(|p| p.name == "token/account").unwrap();
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let valid = hopper::valid_input(op);
        let written = hopper::expected(account, &valid).unwrap();
        let with_bytes = |at: usize, bytes: &[u8]| {
            let mut w = written.clone();
            w[at..at + bytes.len()].copy_from_slice(bytes);
            Ok(w)
        };
        let too_small = Err(ProgramError::AccountDataTooSmall);
        let invalid = Err(ProgramError::InvalidAccountData);
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
            ("no data", valid.with(|i| i.data.clear()), too_small.clone()),
            (
                "less than the header",
                valid.with(|i| i.data.truncate(15)),
                too_small.clone(),
            ),
            (
                "a record one byte short",
                valid.with(|i| i.data.truncate(16 + 159)),
                too_small.clone(),
            ),
            (
                "another discriminator",
                valid.with(|i| i.data[0] = 2),
                invalid.clone(),
            ),
            (
                "another version",
                valid.with(|i| i.data[1] = 2),
                invalid.clone(),
            ),
            (
                "another layout id",
                valid.with(|i| i.data[4] ^= 1),
                invalid.clone(),
            ),
            (
                "another schema epoch",
                valid.with(|i| i.data[12] = 2),
                invalid.clone(),
            ),
            (
                "the flags set (not read)",
                valid.with(|i| i.data[2] = 1),
                with_bytes(2, &[1]),
            ),
            (
                "the legacy schema epoch 0 (accepted)",
                valid.with(|i| i.data[12] = 0),
                with_bytes(12, &[0]),
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
                Err(ProgramError::Immutable),
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
                invalid.clone(),
            )
        });
        for (label, input, want) in cases {
            let label = format!("{} ({label})", op.name());
            if let Err(e) = assert_outcome(&mollusk, account, &label, &input, want) {
                failures.push(e);
            }
        }
        // An account another program owns: Hopper's owner check.
        let mut case = Case::with_outcome(
            account,
            op.name(),
            &valid,
            Err(ProgramError::IncorrectProgramId),
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
/// behind the header, damaged by the hostile generator or not.
#[test]
fn hostile_input_meets_the_contract() {
    let (programs, mollusk) = load();
    let op = prop_oneof![8 => 0..=2u8, 1 => any::<u8>()].prop_map(|op| vec![op]);
    let instruction_data = prop_oneof![9 => op, 1 => vec(any::<u8>(), 0..3)];
    hostile::framework_token_programs(
        &programs,
        &LoggedMollusk::new(mollusk),
        2_000,
        hopper::account,
        instruction_data,
        |after| {
            // What a write left, `full` reads and writes again.
            let mut again = hopper::valid_input(Operation::Full);
            again.data = after.to_vec();
            again.owner_key = after[16 + 32..16 + 64].try_into().unwrap();
            again
        },
    );
}
