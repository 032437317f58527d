//! The star_frame programs (programs/star_frame/) against star_frame's
//! contract (benches/src/frameworks/star_frame.rs): the exact bytes after
//! each write, each error on an input made for it with every account
//! unchanged, and random or hostile input, never a fault, never a change
//! before a failure.

use benches::{
    Framework,
    frameworks::star_frame::{
        self, ADVANCE_ERROR, DISCRIMINANT_MISMATCH, EXPECTED_WRITABLE, RAW_SLICE_ADVANCE,
        instruction,
    },
};
use common::token::Operation;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;

use crate::framework_token::{self as shared, Layout};

const LAYOUT: Layout = Layout {
    framework: Framework::StarFrame,
    before_record: 8,
    account: star_frame::account,
    valid_input: star_frame::valid_input,
};

/// `full` and `update_amount` write exactly `state` and `amount`, behind
/// the record's discriminant.
#[test]
fn writes_exactly_state_and_amount() {
    shared::writes_exactly_state_and_amount(&LAYOUT);
}

/// Each of star_frame's refusals on an input made for it, and what it
/// accepts (a longer account, another owner where none is checked).
#[test]
fn errors_are_star_frames_and_change_nothing() {
    let (programs, mollusk) = LAYOUT.load();
    let account = shared::token_program(&programs);
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
        cases.extend(shared::read_only_and_owner(
            op,
            &valid,
            &written,
            EXPECTED_WRITABLE,
            ProgramError::IncorrectAuthority,
        ));
        shared::run_all(&mollusk, account, op, cases, &mut failures);
        // `Account<T>`'s owner check.
        let owner = ProgramError::InvalidAccountOwner;
        failures.extend(shared::foreign_owner(&mollusk, account, op, &valid, owner).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// 2,000 random and hostile inputs per program, the floor included.
#[test]
fn hostile_input_meets_the_contract() {
    let known = prop::sample::select(Operation::ALL.to_vec()).prop_map(instruction);
    let instruction_data = prop_oneof![8 => known, 2 => vec(any::<u8>(), 0..12)];
    shared::hostile_input_meets_the_contract(&LAYOUT, instruction_data);
}
