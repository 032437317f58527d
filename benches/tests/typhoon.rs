//! The typhoon programs (programs/typhoon/) against typhoon's contract
//! (benches/src/typhoon.rs): the exact bytes after each write, each error
//! on an input made for it with every account unchanged, and random or
//! hostile input, never a fault, never a change before a failure.

use benches::frameworks::typhoon::{
    self, DISCRIMINATOR_MISMATCH, HAS_ONE, READ_ONLY_WRITE, UNKNOWN_INSTRUCTION,
};
use common::token::Operation;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;

use crate::framework_token::{self as shared, Layout};

const LAYOUT: Layout = Layout {
    oracle: &benches::frameworks::typhoon::ORACLE,
    before_record: 8,
    account: typhoon::account,
    valid_input: typhoon::valid_input,
};

/// `full` and `update_amount` write exactly `state` (8 + 104) and
/// `amount` (8 + 64..72); `read_owner` nothing; written out by hand.
#[test]
fn writes_exactly_state_and_amount() {
    shared::writes_exactly_state_and_amount(&LAYOUT);
}

/// Each of typhoon's refusals on an input made for it, and what it
/// accepts (another owner where none is checked).
#[test]
fn errors_are_typhoons_and_change_nothing() {
    let (programs, mollusk) = LAYOUT.load();
    let account = shared::token_program(&programs);
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let valid = typhoon::valid_input(op);
        let written = typhoon::expected(account, &valid).unwrap();
        // The cast's size error: typhoon's `has_one` passes bytemuck's on
        // (`BorshIoError`), `mut_data` maps it to `InvalidAccountData`.
        let wrong_size = match op {
            Operation::UpdateAmount => ProgramError::InvalidAccountData,
            Operation::Full | Operation::ReadOwner => ProgramError::BorshIoError,
        };
        let mut cases = vec![
            (
                "no instruction data",
                valid.with(|i| i.instruction_data.clear()),
                Err(ProgramError::InvalidInstructionData),
            ),
            (
                "an unknown op byte",
                valid.with(|i| i.instruction_data = vec![3]),
                Err(UNKNOWN_INSTRUCTION),
            ),
            (
                "one account",
                valid.with(|i| i.account_count = 1),
                Err(ProgramError::NotEnoughAccountKeys),
            ),
            (
                "7 bytes of data",
                valid.with(|i| i.data.truncate(7)),
                Err(ProgramError::AccountDataTooSmall),
            ),
            (
                "another discriminator",
                valid.with(|i| i.data[0] ^= 1),
                Err(DISCRIMINATOR_MISMATCH),
            ),
            (
                "a record one byte short",
                valid.with(|i| i.data.truncate(8 + 159)),
                Err(wrong_size.clone()),
            ),
            (
                "a longer account",
                valid.with(|i| i.data.push(0)),
                Err(wrong_size.clone()),
            ),
        ];
        cases.extend(shared::read_only_and_owner(
            op,
            &valid,
            &written,
            READ_ONLY_WRITE,
            HAS_ONE,
        ));
        shared::run_all(&mollusk, account, op, cases, &mut failures);
        // typhoon's owner check.
        let owner = ProgramError::InvalidAccountOwner;
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
