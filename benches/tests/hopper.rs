//! The Hopper programs (programs/hopper/) against Hopper's contract
//! (benches/src/frameworks/hopper.rs): the exact bytes after each write,
//! each error on an input made for it with every account unchanged, and
//! random or hostile input, never a fault, never a change before a
//! failure.

use benches::{Framework, frameworks::hopper};
use common::token::Operation;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;

use crate::framework_token::{self as shared, Layout};

const LAYOUT: Layout = Layout {
    framework: Framework::Hopper,
    before_record: 16,
    account: hopper::account,
    valid_input: hopper::valid_input,
};

/// `full` and `update_amount` write exactly `state` and `amount`, behind
/// the header the harness computes as Hopper's derive does.
#[test]
fn writes_exactly_state_and_amount() {
    shared::writes_exactly_state_and_amount(&LAYOUT);
}

/// Each of Hopper's refusals on an input made for it, and what it accepts
/// (a longer account, the flags, the legacy schema epoch 0, another owner
/// where none is checked).
#[test]
fn errors_are_hoppers_and_change_nothing() {
    let (programs, mollusk) = LAYOUT.load();
    let account = shared::token_program(&programs);
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
        cases.extend(shared::read_only_and_owner(
            op,
            &valid,
            &written,
            ProgramError::Immutable,
            ProgramError::InvalidAccountData,
        ));
        shared::run_all(&mollusk, account, op, cases, &mut failures);
        // Hopper's owner check.
        let owner = ProgramError::IncorrectProgramId;
        failures.extend(shared::foreign_owner(&mollusk, account, op, &valid, owner).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 2,000 random and hostile inputs per program, the floor included.
#[test]
fn hostile_input_meets_the_contract() {
    let op = prop_oneof![8 => 0..=2u8, 1 => any::<u8>()].prop_map(|op| vec![op]);
    let instruction_data = prop_oneof![9 => op, 1 => vec(any::<u8>(), 0..3)];
    shared::hostile_input_meets_the_contract(&LAYOUT, instruction_data);
}
