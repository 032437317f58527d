//! The Steel programs (programs/steel/) against Steel's contract
//! (benches/src/frameworks/steel.rs): the exact bytes after each write,
//! each error on an input made for it with every account unchanged, and
//! random or hostile input, never a fault, never a change before a
//! failure.

use benches::{
    Framework,
    frameworks::steel::{self, READ_ONLY_WRITE},
    token::fixture,
};
use common::token::Operation;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;

use crate::framework_token::{self as shared, Layout};

const LAYOUT: Layout = Layout {
    framework: Framework::Steel,
    before_record: 8,
    account: steel::account,
    valid_input: steel::valid_input,
};

/// The discriminator is its byte and seven zeros; `full` and
/// `update_amount` write exactly `state` and `amount`.
#[test]
fn writes_exactly_state_and_amount() {
    assert_eq!(steel::account(&fixture())[..8], [1, 0, 0, 0, 0, 0, 0, 0]);
    shared::writes_exactly_state_and_amount(&LAYOUT);
}

/// Each of Steel's refusals on an input made for it, and what it accepts
/// (another owner where none is checked, the discriminator's seven bytes
/// Steel does not read).
#[test]
fn errors_are_steels_and_change_nothing() {
    let (programs, mollusk) = LAYOUT.load();
    let account = shared::token_program(&programs);
    let mut failures = Vec::new();
    for op in Operation::ALL {
        let valid = steel::valid_input(op);
        let written = steel::expected(account, &valid).unwrap();
        let refused = Err(ProgramError::InvalidAccountData);
        let mut unread = written.clone();
        unread[1..8].fill(0xee);
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
                Ok(unread),
            ),
        ];
        cases.extend(shared::read_only_and_owner(
            op,
            &valid,
            &written,
            READ_ONLY_WRITE,
            ProgramError::InvalidAccountData,
        ));
        shared::run_all(&mollusk, account, op, cases, &mut failures);
        // `as_account`'s owner check.
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
