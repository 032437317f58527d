//! The Hopper programs (programs/hopper/) against Hopper's contract
//! (benches/src/frameworks/hopper.rs): the exact bytes after each write,
//! each error on an input made for it with every account unchanged, and
//! random or hostile input, never a fault, never a change before a
//! failure.

use benches::{
    frameworks::{fixed_metadata, hopper},
    metadata::instance,
};
use common::token::Operation;
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;

use crate::{
    framework_metadata as metadata,
    framework_token::{self as shared, Layout},
};

const LAYOUT: Layout = Layout {
    oracle: &benches::frameworks::hopper::ORACLE,
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

pub const METADATA: metadata::Layout = metadata::Layout {
    oracle: &benches::frameworks::hopper::ORACLE,
    account: |record| fixed_metadata::account(&hopper::metadata_header(), record),
    before_record: 16,
    is_mutable: fixed_metadata::IS_MUTABLE,
    valid_input: hopper::metadata_input,
    set_uri: |uri, record| {
        hopper::metadata_input("set_uri", record)
            .with(|i| i.instruction_data = [&[4][..], uri].concat())
    },
    read_only: ProgramError::Immutable,
    not_utf8: ProgramError::InvalidArgument,
    wrong_authority: ProgramError::InvalidAccountData,
};

/// `read_royalty` writes nothing; `set_uri` exactly the uri's slot and
/// length, behind the header the harness computes as Hopper's derive does
/// (its fingerprint from the record's 32 fields).
#[test]
fn metadata_calls_leave_exact_bytes() {
    metadata::benchmark_calls_leave_exact_bytes(&METADATA);
}

/// Hopper's refusals before the record (the op byte and its arguments
/// before the accounts, the accounts, the writable flag, the length, the
/// header, `has_one`), then the record's own, each with every account
/// unchanged; and what it accepts (a longer account, the flags).
#[test]
fn metadata_errors_are_hoppers_and_change_nothing() {
    let record = instance("typical");
    let royalty = hopper::metadata_input("read_royalty", &record);
    let set_uri = hopper::metadata_input("set_uri", &record);
    let refused = Err(ProgramError::InvalidAccountData);
    let mut cases = metadata::op_byte_and_argument(&METADATA);
    cases.extend([
        (
            "set_uri: a record one byte short",
            set_uri.with(|i| {
                i.data.pop();
            }),
            Err(ProgramError::AccountDataTooSmall),
        ),
        (
            "set_uri: another discriminator",
            set_uri.with(|i| i.data[0] = 2),
            refused.clone(),
        ),
        (
            "set_uri: another layout fingerprint",
            set_uri.with(|i| i.data[4] ^= 1),
            refused.clone(),
        ),
        (
            "read_royalty: the token record's header",
            royalty.with(|i| i.data[..16].copy_from_slice(&hopper::header())),
            refused,
        ),
        (
            "set_uri: a longer account (accepted)",
            set_uri.with(|i| i.data.push(7)),
            hopper::expected(&METADATA.load().0, &set_uri).map(|mut after| {
                after.push(7);
                after
            }),
        ),
    ]);
    cases.extend(metadata::record_refusals(&METADATA));
    cases.push(metadata::uri_past_its_slot(&METADATA));
    metadata::run_all(&METADATA, cases);
    metadata::foreign_owner(&METADATA, ProgramError::IncorrectProgramId);
}

/// 2,000 random and hostile inputs: op bytes 3 and 4 with arguments of
/// any length, or random bytes.
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
