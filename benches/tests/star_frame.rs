//! The star_frame programs (programs/star_frame/) against star_frame's
//! contract (benches/src/frameworks/star_frame.rs): the exact bytes after
//! each write, each error on an input made for it with every account
//! unchanged, and random or hostile input, never a fault, never a change
//! before a failure.

use benches::{
    frameworks::{
        ABORTS, MAY_ABORT,
        fixed_metadata::Call,
        star_frame::{
            self, ADVANCE_ERROR, DISCRIMINANT_MISMATCH, EXPECTED_WRITABLE, RAW_SLICE_ADVANCE, args,
            instruction,
            metadata::{self as unsized_metadata, IO_ERROR, SIZED_LEN, call_data},
            sighash,
        },
    },
    metadata::instance,
};
use common::{metadata::Metadata, token::Operation};
use proptest::{collection::vec, prelude::*};
use solana_program_error::ProgramError;

use crate::{
    framework_metadata as metadata,
    framework_token::{self as shared, Layout},
};

const LAYOUT: Layout = Layout {
    oracle: &benches::frameworks::star_frame::ORACLE,
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

const METADATA: metadata::Layout = metadata::Layout {
    oracle: &benches::frameworks::star_frame::ORACLE,
    account: unsized_metadata::account,
    before_record: 8,
    is_mutable: 68,
    valid_input: unsized_metadata::valid_input,
    set_uri: |uri, record| {
        unsized_metadata::valid_input("set_uri", record)
            .with(|i| i.instruction_data = call_data(&Call::SetUri(uri.to_vec())))
    },
    read_only: EXPECTED_WRITABLE,
    wrong_authority: ProgramError::IncorrectAuthority,
    not_utf8: IO_ERROR,
};

/// `read_royalty` writes nothing; `set_uri` leaves the record with the
/// new uri at its own length (the account 17 bytes longer, or shorter,
/// what followed the uri moved), written out from the record.
#[test]
fn metadata_calls_leave_exact_bytes() {
    let record = instance("typical");
    let input = unsized_metadata::valid_input("set_uri", &record);
    let written = unsized_metadata::expected(&input).unwrap();
    assert_eq!(written.len(), input.data.len() + 17);
    metadata::benchmark_calls_leave_exact_bytes(&METADATA);
}

/// star_frame's refusals before the record (the discriminant, the borsh
/// arguments before the accounts, the accounts, the account's
/// discriminant, the writable flag, each length the record counts), then
/// the record's own, each with every account unchanged; and what it
/// accepts (trailing argument bytes, bytes past the record, which
/// `set_uri` keeps after it).
#[test]
fn metadata_errors_are_star_frames_and_change_nothing() {
    let record: Metadata = instance("typical");
    let royalty = unsized_metadata::valid_input("read_royalty", &record);
    let set_uri = unsized_metadata::valid_input("set_uri", &record);
    let written = unsized_metadata::expected(&set_uri).unwrap();
    let name_len = 8 + SIZED_LEN;
    let mut cases = vec![
        (
            "seven bytes of instruction data",
            royalty.with(|i| i.instruction_data.truncate(7)),
            Err(ADVANCE_ERROR),
        ),
        (
            "the token family's discriminant",
            royalty.with(|i| i.instruction_data = sighash("global", "full").to_vec()),
            Err(ProgramError::InvalidInstructionData),
        ),
        (
            "read_royalty: one byte of argument",
            royalty.with(|i| i.instruction_data.truncate(9)),
            Err(IO_ERROR),
        ),
        (
            "read_royalty: a third byte of argument (ignored)",
            royalty.with(|i| i.instruction_data.push(0)),
            Ok(royalty.data.clone()),
        ),
        (
            "set_uri: a length past the bytes",
            set_uri.with(|i| i.instruction_data[8] += 1),
            Err(IO_ERROR),
        ),
        (
            "set_uri: a short argument and one account (the argument first)",
            set_uri.with(|i| {
                i.instruction_data.truncate(10);
                i.account_count = 1;
            }),
            Err(IO_ERROR),
        ),
        (
            "set_uri: one account",
            set_uri.with(|i| i.account_count = 1),
            Err(ADVANCE_ERROR),
        ),
        (
            "set_uri: seven bytes of data",
            set_uri.with(|i| i.data.truncate(7)),
            Err(ProgramError::AccountDataTooSmall),
        ),
        (
            "set_uri: another discriminant",
            set_uri.with(|i| i.data[0] ^= 1),
            Err(DISCRIMINANT_MISMATCH),
        ),
        (
            "set_uri: the fixed-size fields cut short",
            set_uri.with(|i| i.data.truncate(name_len - 1)),
            Err(RAW_SLICE_ADVANCE),
        ),
        (
            "read_royalty: a name longer than the account",
            royalty
                .with(|i| i.data[name_len..name_len + 4].copy_from_slice(&u32::MAX.to_le_bytes())),
            Err(RAW_SLICE_ADVANCE),
        ),
        (
            "read_royalty: the creators' list cut short",
            royalty.with(|i| {
                i.data.pop();
            }),
            Err(RAW_SLICE_ADVANCE),
        ),
        (
            "set_uri: bytes past the record (kept after it)",
            set_uri.with(|i| i.data.extend([7, 7])),
            Ok([&written[..], &[7, 7]].concat()),
        ),
    ];
    cases.extend(metadata::record_refusals(&METADATA));
    metadata::run_all(&METADATA, cases);
    metadata::foreign_owner(&METADATA, ProgramError::InvalidAccountOwner);
    // A uri whose length prefix claims 1 MiB: borsh preallocates it before
    // it reads, past the 32 KiB heap, and the program aborts.
    let claim =
        set_uri.with(|i| i.instruction_data[8..12].copy_from_slice(&(1u32 << 20).to_le_bytes()));
    metadata::assert_aborts(&METADATA, &claim);
}

/// 2,000 random and hostile inputs: each operation's discriminant with
/// arguments of any length (a uri's length prefix among them), or random
/// bytes; records damaged anywhere, their lengths included.
#[test]
fn metadata_hostile_input_meets_the_contract() {
    let discriminant = prop_oneof![
        Just(sighash("global", "read_royalty").to_vec()),
        Just(sighash("global", "set_uri").to_vec()),
    ];
    let tagged =
        (discriminant, vec(any::<u8>(), 0..12)).prop_map(|(tag, args)| [tag, args].concat());
    let instruction_data = prop_oneof![3 => tagged, 1 => vec(any::<u8>(), 0..10)];
    metadata::hostile_input_meets_the_contract(&METADATA, instruction_data);
}

/// What `set_uri` costs per byte of the new uri, from two ASCII uris (40
/// and 200 bytes) on the `typical` record: star_frame's `UnsizedString::set`
/// writes the uri one byte at a time (`List::insert_all` copies each item
/// through a bounds-checked slice), about 16 CUs a byte; Hopper's
/// `copy_from_slice` into its slot, under 1 (docs/frameworks.md).
#[test]
fn metadata_set_uri_costs_16_cus_a_byte() {
    let record = instance("typical");
    let cus = |layout: &metadata::Layout, len: usize| {
        let (program, mollusk) = layout.load();
        let input = (layout.set_uri)("u".repeat(len).as_bytes(), &record);
        let case = benches::Case::new(&program, "set_uri", &input);
        let (result, _) = benches::vm::LoggedMollusk::new(mollusk).run(&case);
        case.check(&result).unwrap();
        result.compute_units_consumed as f64
    };
    let per_byte = |layout| (cus(layout, 200) - cus(layout, 40)) / 160.0;
    assert_eq!(per_byte(&METADATA).round(), 16.0);
    assert!(per_byte(&crate::hopper::METADATA) < 1.0);
}

/// The star_frame programs of the metadata family and their Mollusk.
fn load_args() -> (benches::Program, mollusk_svm::Mollusk) {
    let (programs, mollusk) = benches::Workspace::current()
        .load_framework(
            benches::frameworks::star_frame::ORACLE.framework(),
            benches::Family::Metadata,
        )
        .unwrap_or_else(|e| panic!("{e}"));
    let program = programs
        .into_iter()
        .find(|p| p.name == args::NAME)
        .expect("star_frame's arguments program");
    (program, mollusk)
}

/// `set_record` on each instance stores the record's royalty in account
/// [0]'s first two bytes and nothing else; each refusal on an input made
/// for it changes nothing: the discriminant, the argument's encoding
/// (before the accounts), a string claiming 1 MiB (an abort), the
/// account, its writable flag, its length.
#[test]
fn args_store_the_royalty_and_refuse_what_does_not_decode() {
    let (program, mollusk) = load_args();
    let mut failures = Vec::new();
    for name in benches::metadata::INSTANCES {
        let record = instance(name);
        let input = args::valid_input(&record);
        let mut want = vec![0x77; 48];
        want[..2].copy_from_slice(&record.seller_fee_basis_points.to_le_bytes());
        let label = format!("set_record on `{name}`");
        failures.extend(shared::assert_outcome(&mollusk, &program, &label, &input, Ok(want)).err());
    }
    let valid = args::valid_input(&instance("typical"));
    // The name's length prefix: after the discriminant, the key and two keys.
    let name_len = 8 + 1 + 64;
    let cases = [
        (
            "seven bytes",
            valid.with(|i| i.instruction_data.truncate(7)),
            Err(ADVANCE_ERROR),
        ),
        (
            "another discriminant",
            valid.with(|i| i.instruction_data[..8].copy_from_slice(&sighash("global", "full"))),
            Err(ProgramError::InvalidInstructionData),
        ),
        (
            "the record cut short, and no account (the argument first)",
            valid.with(|i| {
                i.instruction_data.pop();
                i.account_count = 0;
            }),
            Err(IO_ERROR),
        ),
        (
            "a key past its variants",
            valid.with(|i| i.instruction_data[8] = 5),
            Err(IO_ERROR),
        ),
        (
            "trailing bytes (ignored)",
            valid.with(|i| i.instruction_data.push(9)),
            args::expected(&valid),
        ),
        (
            "no account",
            valid.with(|i| i.account_count = 0),
            Err(ADVANCE_ERROR),
        ),
        (
            "account [0] read-only",
            valid.with(|i| i.writable = false),
            Err(EXPECTED_WRITABLE),
        ),
        (
            "account [0] one byte long",
            valid.with(|i| i.data.truncate(1)),
            Err(ProgramError::AccountDataTooSmall),
        ),
    ];
    for (label, input, want) in cases {
        failures.extend(shared::assert_outcome(&mollusk, &program, label, &input, want).err());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let claim = valid.with(|i| {
        i.instruction_data[name_len..name_len + 4].copy_from_slice(&(1u32 << 20).to_le_bytes())
    });
    assert_eq!(args::expected(&claim), Err(ABORTS));
    let mollusk = benches::vm::LoggedMollusk::new(mollusk);
    metadata::aborts(&mollusk, &program, &claim, Err(ABORTS), &IO_ERROR)
        .unwrap_or_else(|e| panic!("a 1 MiB string claim: {e}"));
}

/// 2,000 random and hostile inputs: the record's encoding damaged by the
/// hostile generator (its lengths and tags included) or random bytes after
/// the discriminant, 0 to 2 accounts, either writable flag, account [0]
/// 0 to 3 bytes or 48; no fault, nothing changed before an error, an abort
/// only where the oracle says so.
#[test]
fn args_hostile_input_meets_the_contract() {
    let (program, mollusk) = load_args();
    let mollusk = benches::vm::LoggedMollusk::new(mollusk);
    let records: Vec<Vec<u8>> = benches::metadata::INSTANCES
        .map(|name| borsh::to_vec(&instance(name)).unwrap())
        .to_vec();
    let strategy = (
        0..records.len(),
        prop_oneof![4 => benches::hostile::mutation().prop_map(Some), 1 => Just(None)],
        vec(any::<u8>(), 0..40),
        prop::bool::weighted(0.2),
        prop_oneof![1 => Just(0usize), 6 => 1..=2usize],
        prop::bool::weighted(0.85),
        prop_oneof![1 => 0..=3usize, 5 => Just(48usize)],
    );
    benches::hostile::run_cases(
        &program.label(),
        2_000,
        strategy,
        |(which, mutation, random, use_random, account_count, writable, len)| {
            let record = match (use_random, mutation) {
                (true, _) => random,
                (false, Some(mutation)) => mutation.apply(&records[which]),
                (false, None) => records[which].clone(),
            };
            let input = benches::Input {
                instruction_data: [&sighash("global", args::OPERATION)[..], &record].concat(),
                account_count,
                writable,
                data: vec![0x77; len],
                owner_key: [0; 32],
            };
            let want = args::expected(&input);
            if matches!(want, Err(ABORTS) | Err(MAY_ABORT)) {
                return metadata::aborts(&mollusk, &program, &input, want, &IO_ERROR);
            }
            benches::hostile::check_call(&mollusk, &program, &input, |after| {
                args::valid_input(&instance("typical")).with(|i| i.data = after.to_vec())
            })
        },
    );
}
