//! What the metadata-record tests of Steel, star_frame and Hopper share:
//! the exact bytes after each benchmark call, the record's own refusals,
//! and the hostile run, whatever the layout (the record at fixed capacity
//! behind Steel's discriminator or Hopper's header,
//! benches/src/frameworks/fixed_metadata.rs; star_frame's unsized types).
//! Each framework's file keeps the refusals of its own checks.

use benches::{
    Case, Family, Input, Program, Workspace,
    frameworks::fixed_metadata::{self, OPERATIONS},
    frameworks::{ABORTS, MAY_ABORT, Oracle},
    hostile,
    metadata::{INSTANCES, instance, new_uri},
    vm::{LoggedMollusk, Outcome},
};
use common::metadata::{MAX_URI, Metadata};
use mollusk_svm::Mollusk;
use proptest::prelude::*;
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

use crate::framework_token::{Call, WRONG_KEY, assert_outcome};

/// How a framework lays the metadata record out and calls it.
pub struct Layout {
    pub oracle: &'static Oracle,
    /// The account holding a record.
    pub account: fn(&Metadata) -> Vec<u8>,
    /// The bytes before the record: the discriminator or header.
    pub before_record: usize,
    /// Where the mutable flag is in the record.
    pub is_mutable: usize,
    /// The benchmark call of an operation on a record.
    pub valid_input: fn(&str, &Metadata) -> Input,
    /// The call of `set_uri` with these uri bytes, on a record.
    pub set_uri: fn(&[u8], &Metadata) -> Input,
    /// What a write to account [0] passed read-only gives.
    pub read_only: ProgramError,
    /// What `set_uri` with another account than the update authority
    /// gives.
    pub wrong_authority: ProgramError,
    /// What a new uri that is not UTF-8 gives.
    pub not_utf8: ProgramError,
}

impl Layout {
    pub fn load(&self) -> (Program, Mollusk) {
        let (programs, mollusk) = Workspace::current()
            .load_framework(self.oracle.framework(), Family::Metadata)
            .unwrap_or_else(|e| panic!("{e}"));
        let program = programs
            .into_iter()
            .find(|p| p.name == "metadata/account")
            .expect("the framework's metadata program");
        (program, mollusk)
    }

    /// The account holding `metadata`.
    pub fn account(&self, metadata: &Metadata) -> Vec<u8> {
        (self.account)(metadata)
    }
}

fn report(failures: Vec<String>) {
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `read_royalty` leaves the account as it was; `set_uri` writes the new
/// uri in its slot (zeroing what a shorter one frees) and nothing else.
/// Written out from the record, not from the oracle.
pub fn benchmark_calls_leave_exact_bytes(layout: &Layout) {
    let (program, mollusk) = layout.load();
    let mut failures = Vec::new();
    for name in INSTANCES {
        let metadata = instance(name);
        for op in OPERATIONS {
            let want = match op {
                "set_uri" => Metadata {
                    uri: new_uri(&metadata),
                    ..metadata.clone()
                },
                _ => metadata.clone(),
            };
            let input = (layout.valid_input)(op, &metadata);
            assert_eq!(input.data, layout.account(&metadata));
            let label = format!("{op} on `{name}`");
            let want = Ok(layout.account(&want));
            failures.extend(assert_outcome(&mollusk, &program, &label, &input, want).err());
        }
    }
    report(failures);
}

/// The record's own refusals, the same in every framework (the family's
/// errors), and what the operations accept, on the `typical` record.
pub fn record_refusals(layout: &Layout) -> Vec<Call<'static>> {
    let metadata = instance("typical");
    let at = layout.before_record;
    let royalty = (layout.valid_input)("read_royalty", &metadata);
    let set_uri = (layout.valid_input)("set_uri", &metadata);
    let written = |uri: &str| {
        Ok(layout.account(&Metadata {
            uri: uri.into(),
            ..metadata.clone()
        }))
    };
    let with_uri = |uri: &[u8]| (layout.set_uri)(uri, &metadata);
    let invalid = Err(ProgramError::InvalidAccountData);
    let argument = Err(ProgramError::InvalidArgument);
    let is_mutable = at + layout.is_mutable;
    let bound = "u".repeat(MAX_URI);
    let wrong_royalty = (layout.valid_input)(
        "read_royalty",
        &Metadata {
            seller_fee_basis_points: metadata.seller_fee_basis_points + 1,
            ..metadata.clone()
        },
    )
    .with(|i| i.data = royalty.data.clone());
    vec![
        (
            "read_royalty: another key",
            royalty.with(|i| i.data[at] = 3),
            invalid.clone(),
        ),
        (
            "read_royalty: another royalty",
            wrong_royalty,
            argument.clone(),
        ),
        (
            "read_royalty: account [0] read-only (a read)",
            royalty.with(|i| i.writable = false),
            Ok(royalty.data.clone()),
        ),
        (
            "set_uri: account [0] read-only",
            set_uri.with(|i| i.writable = false),
            Err(layout.read_only.clone()),
        ),
        (
            "set_uri: another key",
            set_uri.with(|i| i.data[at] = 3),
            invalid.clone(),
        ),
        (
            "set_uri: the mutable flag not a bool",
            set_uri.with(|i| i.data[is_mutable] = 2),
            invalid.clone(),
        ),
        (
            "set_uri: another authority",
            set_uri.with(|i| i.owner_key = WRONG_KEY),
            Err(layout.wrong_authority.clone()),
        ),
        (
            "set_uri: an immutable record",
            set_uri.with(|i| i.data[is_mutable] = 0),
            argument.clone(),
        ),
        (
            "set_uri: a uri past the bound",
            with_uri("u".repeat(MAX_URI + 1).as_bytes()),
            argument.clone(),
        ),
        (
            "set_uri: a uri that is not UTF-8",
            with_uri(&[b'a', 0xff]),
            Err(layout.not_utf8.clone()),
        ),
        (
            "set_uri: a uri at the bound",
            with_uri(bound.as_bytes()),
            written(&bound),
        ),
        (
            "set_uri: an empty uri (zeroes the old)",
            with_uri(b""),
            written(""),
        ),
    ]
}

/// The refusals of the family's instruction data as Steel's and Hopper's
/// argument decoders read it, before the accounts: no data, an op byte no
/// metadata handler has (the token family's `full`), `read_royalty`'s
/// argument a byte short or long (with one account too: the argument is
/// read first); then one account.
pub fn op_byte_and_argument(layout: &Layout) -> Vec<Call<'static>> {
    let record = instance("typical");
    let royalty = (layout.valid_input)("read_royalty", &record);
    let set_uri = (layout.valid_input)("set_uri", &record);
    let data = Err(ProgramError::InvalidInstructionData);
    let accounts = Err(ProgramError::NotEnoughAccountKeys);
    vec![
        (
            "no instruction data",
            royalty.with(|i| i.instruction_data.clear()),
            data.clone(),
        ),
        (
            "the token family's op byte",
            royalty.with(|i| i.instruction_data = vec![0]),
            data.clone(),
        ),
        (
            "read_royalty: one byte of argument",
            royalty.with(|i| i.instruction_data.truncate(2)),
            data.clone(),
        ),
        (
            "read_royalty: a third byte of argument",
            royalty.with(|i| i.instruction_data.push(0)),
            data.clone(),
        ),
        (
            "read_royalty: a long argument and one account (the argument first)",
            royalty.with(|i| {
                i.instruction_data.push(0);
                i.account_count = 1;
            }),
            data,
        ),
        (
            "read_royalty: one account",
            royalty.with(|i| i.account_count = 1),
            accounts.clone(),
        ),
        (
            "set_uri: one account",
            set_uri.with(|i| i.account_count = 1),
            accounts,
        ),
    ]
}

/// The fixed-capacity record's own refusal: the old uri's length past its
/// slot (`set_uri` checks it before it writes there).
pub fn uri_past_its_slot(layout: &Layout) -> Call<'static> {
    let set_uri = (layout.valid_input)("set_uri", &instance("typical"));
    let at = layout.before_record + fixed_metadata::URI_LEN;
    (
        "set_uri: the old uri's length past its slot",
        set_uri.with(|i| i.data[at] = 201),
        Err(ProgramError::InvalidAccountData),
    )
}

/// Runs each labelled input with its outcome; every failure reported.
pub fn run_all(layout: &Layout, cases: Vec<Call>) {
    let (program, mollusk) = layout.load();
    let failures = cases
        .into_iter()
        .filter_map(|(label, input, want)| {
            assert_outcome(&mollusk, &program, label, &input, want).err()
        })
        .collect();
    report(failures);
}

/// `set_uri`'s benchmark call with account [0] owned by another program:
/// `want`, nothing changed.
pub fn foreign_owner(layout: &Layout, want: ProgramError) {
    let (program, mollusk) = layout.load();
    let input = (layout.valid_input)("set_uri", &instance("typical"));
    let mut case = Case::with_outcome(&program, "set_uri", &input, Err(want));
    case.accounts[0].1.owner = Pubkey::new_from_array([0x55; 32]);
    case.run(&mollusk)
        .unwrap_or_else(|e| panic!("set_uri (account owned by another program): {e}"));
}

/// An input the oracle says aborts the program ([`ABORTS`]: borsh's
/// preallocation for a uri whose length prefix claims more than the heap)
/// or may ([`MAY_ABORT`], within the heap's margin: an abort or
/// `decode_error`): the runtime's "SBF program panicked", nothing changed.
pub fn aborts(
    mollusk: &LoggedMollusk,
    program: &Program,
    input: &Input,
    want: Result<Vec<u8>, ProgramError>,
    decode_error: &ProgramError,
) -> Result<String, String> {
    let case = Case::new(program, "hostile input", input);
    match (want, mollusk.run(&case).1) {
        (_, Outcome::Fault(line)) if line.ends_with("failed: SBF program panicked") => {
            Ok("abort (as the oracle says)".into())
        }
        (Err(MAY_ABORT), Outcome::Error(e)) if &e == decode_error => Ok(e.to_string()),
        (_, other) => Err(format!("want an abort, got {other:?}")),
    }
}

/// `input`, which the oracle says aborts the program, aborts it with
/// nothing changed.
pub fn assert_aborts(layout: &Layout, input: &Input) {
    let (program, mollusk) = layout.load();
    let want = benches::families::expected(&program, input);
    assert_eq!(want, Err(ABORTS), "the oracle");
    let mollusk = LoggedMollusk::new(mollusk);
    aborts(&mollusk, &program, input, want, &layout.not_utf8).unwrap();
}

/// 2,000 random and hostile inputs: an operation's benchmark call on each
/// instance, its record damaged by the hostile generator (what goes before
/// it kept)
/// or not, its instruction data from `instruction_data` a third of the
/// time, 0 to 3 accounts, either writable flag, the authority or another;
/// what a write left, `set_uri` reads and writes again.
pub fn hostile_input_meets_the_contract(
    layout: &Layout,
    instruction_data: impl Strategy<Value = Vec<u8>>,
) {
    let (program, mollusk) = layout.load();
    let mollusk = LoggedMollusk::new(mollusk);
    let records = INSTANCES.map(instance);
    let at = layout.before_record;
    let strategy = (
        0..records.len(),
        prop_oneof![2 => hostile::mutation().prop_map(Some), 1 => Just(None)],
        0..OPERATIONS.len(),
        instruction_data,
        prop::bool::weighted(0.35),
        prop_oneof![1 => 0..=1usize, 6 => 2..=3usize],
        prop::bool::weighted(0.85),
        prop::bool::weighted(0.8),
    );
    hostile::run_cases(
        &program.label(),
        2_000,
        strategy,
        |(which, mutation, op, random_data, use_random, account_count, writable, right_key)| {
            let metadata = &records[which];
            let mut input = (layout.valid_input)(OPERATIONS[op], metadata);
            if let Some(mutation) = mutation {
                let account = layout.account(metadata);
                let damaged = mutation.apply(&account[at..]);
                input.data = [&account[..at], &damaged].concat();
            }
            if use_random {
                input.instruction_data = random_data;
            }
            input.account_count = account_count;
            input.writable = writable;
            if !right_key {
                input.owner_key = WRONG_KEY;
            }
            let want = benches::families::expected(&program, &input);
            if matches!(want, Err(ABORTS) | Err(MAY_ABORT)) {
                return aborts(&mollusk, &program, &input, want, &layout.not_utf8);
            }
            hostile::check_call(&mollusk, &program, &input, |after| {
                let mut again = (layout.valid_input)("set_uri", metadata);
                again.data = after.to_vec();
                again
            })
        },
    );
}
