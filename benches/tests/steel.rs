//! The Steel programs (programs/steel/) against Steel's contract
//! (benches/src/frameworks/steel.rs): the exact bytes after each write,
//! each error on an input made for it with every account unchanged, and
//! random or hostile input, never a fault, never a change before a
//! failure.

use benches::{
    frameworks::{
        fixed_metadata,
        steel::{self, READ_ONLY_WRITE},
    },
    metadata::instance,
    token::fixture,
};
use common::{metadata::Metadata, token::Operation};
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;

use crate::{
    framework_metadata as metadata,
    framework_token::{self as shared, Layout},
};

const LAYOUT: Layout = Layout {
    oracle: &benches::frameworks::steel::ORACLE,
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

const METADATA: metadata::Layout = metadata::Layout {
    oracle: &benches::frameworks::steel::ORACLE,
    account: |record| fixed_metadata::account(&steel::account(&[]), record),
    before_record: 8,
    is_mutable: fixed_metadata::IS_MUTABLE,
    valid_input: steel::metadata_input,
    set_uri: |uri, record| {
        steel::metadata_input("set_uri", record)
            .with(|i| i.instruction_data = [&[4][..], uri].concat())
    },
    read_only: READ_ONLY_WRITE,
    not_utf8: ProgramError::InvalidArgument,
    wrong_authority: ProgramError::IncorrectAuthority,
};

/// `read_royalty` writes nothing; `set_uri` exactly the uri's slot and
/// length.
#[test]
fn metadata_calls_leave_exact_bytes() {
    metadata::benchmark_calls_leave_exact_bytes(&METADATA);
}

/// Steel's refusals before the record (the tag, `read_royalty`'s
/// `instruction!` record before the accounts, the accounts, the writable
/// flag, `as_account`'s length and discriminator and owner), then the
/// record's own, each with every account unchanged.
#[test]
fn metadata_errors_are_steels_and_change_nothing() {
    let record = instance("typical");
    let royalty = steel::metadata_input("read_royalty", &record);
    let set_uri = steel::metadata_input("set_uri", &record);
    let refused = Err(ProgramError::InvalidAccountData);
    let mut cases = metadata::op_byte_and_argument(&METADATA);
    cases.extend([
        (
            "set_uri: another discriminator",
            set_uri.with(|i| i.data[0] = 2),
            refused.clone(),
        ),
        (
            "set_uri: a record one byte short",
            set_uri.with(|i| {
                i.data.pop();
            }),
            refused.clone(),
        ),
        (
            "set_uri: a longer account",
            set_uri.with(|i| i.data.push(0)),
            refused.clone(),
        ),
        (
            "read_royalty: no data",
            royalty.with(|i| i.data.clear()),
            refused,
        ),
    ]);
    cases.extend(metadata::record_refusals(&METADATA));
    cases.push(metadata::uri_past_its_slot(&METADATA));
    metadata::run_all(&METADATA, cases);
    metadata::foreign_owner(&METADATA, ProgramError::InvalidAccountOwner);
}

/// 2,000 random and hostile inputs: tags 3 and 4 with arguments of any
/// length, or random bytes.
#[test]
fn metadata_hostile_input_meets_the_contract() {
    let tagged = (
        prop_oneof![4 => 3..=4u8, 1 => any::<u8>()],
        vec(any::<u8>(), 0..4),
    )
        .prop_map(|(tag, args)| [&[tag][..], &args].concat());
    let instruction_data = prop_oneof![3 => tagged, 1 => vec(any::<u8>(), 0..3)];
    metadata::hostile_input_meets_the_contract(&METADATA, instruction_data);
}

/// The record behind the discriminator: its first byte the account type,
/// then the record at fixed capacity.
#[test]
fn metadata_account_is_the_discriminator_then_the_record() {
    let record: Metadata = instance("minimal");
    let input = steel::metadata_input("read_royalty", &record);
    assert_eq!(input.data[..8], [1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(input.data.len(), 8 + 586);
    assert_eq!(
        input.instruction_data,
        [&[3][..], &record.seller_fee_basis_points.to_le_bytes()].concat()
    );
}
