//! The metadata family's contract (docs/metadata.md), clause
//! by clause, for every program under programs/metadata/ and every
//! operation, and random or mutated encodings against the contract.

use benches::{
    Case, Expected, Family, Input, Program, Workspace, hostile,
    metadata::{self, INSTANCES, OPERATIONS, format_of, instance, new_uri, valid_input},
    vm::{LoggedMollusk, Outcome},
};
use common::metadata::{
    Collection, CollectionDetails, Creator, HostFormat, Key, MAX_URI, Metadata, Operation,
    ProgrammableConfig, TokenStandard, UseMethod, Uses,
};
use mollusk_svm::Mollusk;
use proptest::prelude::*;
use solana_program_error::ProgramError;

const WRONG_KEY: [u8; 32] = [0x77; 32];

/// Formats that read in place and validate what each operation reads, not
/// the whole record (their doc comments say what): on data that is not a
/// valid record, an operation may answer from the part it reads.
const VALIDATES_WHAT_IT_READS: [&str; 3] = ["borsh_walk", "light_zero_copy", "bytemuck"];

/// Formats whose host decoder reads only the canonical encoding (the
/// encoder's bytes) while the program accepts others that hold the same
/// record: rkyv's checked access takes any bytes in an archive's padding,
/// the fixed-capacity redesign never reads its unused bytes. On such data
/// the oracle has no exact answer, so the property test holds these
/// programs, `full` included, to the contract's errors or a success that
/// keeps the account's length; the clause tests hold `full` to refusing
/// every invalid field.
const HOST_READS_CANONICAL_ONLY: [&str; 2] = ["rkyv", "bytemuck"];

/// Formats whose decode aborts out of memory on a corrupt length, before
/// the crate can return an error (the message family's test says why:
/// borsh preallocates up to 1 MiB for a string, serde's `Vec` up to 1 MiB
/// for postcard's creators). Only on data that is not a valid record.
const ABORTS_ON_CORRUPT_LENGTH: [&str; 2] = ["borsh", "postcard"];

fn load() -> (Vec<Program>, Mollusk) {
    Workspace::current()
        .load(Family::Metadata)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every program and operation: the labelled inputs and their allowed
/// outcomes; one run reports every failure.
fn assert_clause(
    clause: &str,
    inputs: impl Fn(&Program, &HostFormat, &str) -> Vec<(String, Input, Vec<Expected>)>,
) {
    let (programs, mollusk) = load();
    assert!(!programs.is_empty(), "no metadata programs");
    let mut failures = Vec::new();
    for program in &programs {
        let format = format_of(program);
        for op in OPERATIONS {
            for (label, input, allowed) in inputs(program, format, op) {
                let label = format!("{op} ({label})");
                if let Err(error) =
                    crate::check_any(Case::new(program, &label, &input), &mollusk, &allowed)
                {
                    failures.push(error);
                }
            }
        }
    }
    assert!(failures.is_empty(), "{clause}:\n{}", failures.join("\n"));
}

fn failure(error: ProgramError) -> Vec<Expected> {
    vec![Expected::Failure(error)]
}

/// The record after the benchmark call of `op` on `metadata`, computed
/// from the logical value (not from the oracle), or the call's error.
fn benchmark_after(op: &str, metadata: &Metadata) -> Result<Metadata, ProgramError> {
    let mut after = metadata.clone();
    match op {
        "full" => after.primary_sale_happened = true,
        "verify_creator" => match after.creators.as_mut().and_then(|c| c.last_mut()) {
            Some(last) => last.verified = true,
            None => return Err(ProgramError::InvalidArgument),
        },
        "read_collection" if metadata.collection.is_none() => {
            return Err(ProgramError::InvalidArgument);
        }
        "set_uri" => after.uri = new_uri(metadata),
        _ => {}
    }
    Ok(after)
}

/// The outcome of the benchmark call of `op` on `metadata`.
fn benchmark_outcome(format: &HostFormat, op: &str, metadata: &Metadata) -> Expected {
    match benchmark_after(op, metadata) {
        Ok(after) => Expected::Success(format.account(&after)),
        Err(error) => Expected::Failure(error),
    }
}

/// The records one tag away from `record`: its key as `EditionV1`, then
/// each of its six options `Some` (in the record's order).
fn one_tag_away(record: &Metadata) -> [(&'static str, Metadata); 7] {
    let with = |f: fn(&mut Metadata)| {
        let mut other = record.clone();
        f(&mut other);
        other
    };
    [
        ("key", with(|m| m.key = Key::EditionV1)),
        ("edition_nonce", with(|m| m.edition_nonce = Some(1))),
        (
            "token_standard",
            with(|m| m.token_standard = Some(TokenStandard::NonFungible)),
        ),
        (
            "collection",
            with(|m| {
                m.collection = Some(Collection {
                    verified: false,
                    key: [0; 32],
                })
            }),
        ),
        (
            "uses",
            with(|m| {
                m.uses = Some(Uses {
                    use_method: UseMethod::Burn,
                    remaining: 0,
                    total: 0,
                })
            }),
        ),
        (
            "collection_details",
            with(|m| m.collection_details = Some(CollectionDetails::V1 { size: 0 })),
        ),
        (
            "programmable_config",
            with(|m| m.programmable_config = Some(ProgrammableConfig::V1 { rule_set: None })),
        ),
    ]
}

/// Where `format` stores the tag that tells `record` from `other` (one tag
/// apart): the first byte their encodings differ in.
fn tag_at(format: &HostFormat, record: &Metadata, other: &Metadata) -> usize {
    let (a, b) = ((format.encode)(record), (format.encode)(other));
    a.iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or_else(|| panic!("{}: one tag apart, the same bytes", format.name))
}

/// Where `format` stores `record`'s key.
fn key_at(format: &HostFormat, record: &Metadata) -> usize {
    let [(_, other), ..] = one_tag_away(record);
    tag_at(format, record, &other)
}

#[test]
fn benchmark_calls_on_every_instance_leave_exact_bytes() {
    assert_clause("the benchmark calls", |_, format, op| {
        INSTANCES
            .map(|name| {
                let metadata = instance(name);
                let input = valid_input(format, op, &metadata);
                let outcome = benchmark_outcome(format, op, &metadata);
                (name.to_string(), input, vec![outcome])
            })
            .into()
    });
}

#[test]
fn fewer_than_two_accounts_is_not_enough_account_keys() {
    assert_clause("fewer than 2 accounts", |_, format, op| {
        (0..2)
            .map(|count| {
                let mut input = valid_input(format, op, &instance("typical"));
                input.account_count = count;
                let expected = failure(ProgramError::NotEnoughAccountKeys);
                (format!("{count} accounts"), input, expected)
            })
            .collect()
    });
}

#[test]
fn bad_instruction_data_is_invalid_instruction_data() {
    assert_clause("bad instruction data", |_, format, op| {
        let valid = valid_input(format, op, &instance("typical"));
        let mut bad: Vec<(String, Vec<u8>)> = vec![
            ("empty".into(), vec![]),
            ("unknown op 5".into(), vec![5]),
            ("unknown op 255".into(), vec![255, 0, 0]),
        ];
        match op {
            "read_collection" => {
                bad.push(("31-byte key".into(), valid.instruction_data[..32].to_vec()))
            }
            "read_royalty" => bad.push(("1-byte bps".into(), vec![3, 0xf4])),
            _ => {}
        }
        bad.into_iter()
            .map(|(label, instruction_data)| {
                let input = Input {
                    instruction_data,
                    // Read-only too: the op is parsed before the flag.
                    writable: false,
                    ..valid.clone()
                };
                (label, input, failure(ProgramError::InvalidInstructionData))
            })
            .collect()
    });
}

#[test]
fn read_only_account_refuses_writes_only() {
    assert_clause("account [0] read-only", |_, format, op| {
        let metadata = instance("typical");
        let mut input = valid_input(format, op, &metadata);
        input.writable = false;
        let expected = match Operation::parse(&input.instruction_data).unwrap().writes() {
            true => Expected::Failure(ProgramError::Immutable),
            false => benchmark_outcome(format, op, &metadata),
        };
        vec![("read-only".into(), input, vec![expected])]
    });
}

#[test]
fn wrong_authority_is_refused_where_checked() {
    assert_clause("authority", |_, format, op| {
        let metadata = instance("typical");
        let mut input = valid_input(format, op, &metadata);
        input.owner_key = WRONG_KEY;
        let expected = match op {
            "full" | "set_uri" => Expected::Failure(ProgramError::IncorrectAuthority),
            // Not a creator.
            "verify_creator" => Expected::Failure(ProgramError::InvalidArgument),
            _ => benchmark_outcome(format, op, &metadata),
        };
        vec![("wrong key".into(), input, vec![expected])]
    });
}

/// `input` on data that is not a valid record: `InvalidAccountData`, or,
/// for a format that validates what it reads and an operation other than
/// `full`, what the valid call does (`answer`) where it does not read the
/// damage.
fn damaged(program: &Program, op: &str, answer: Expected) -> Vec<Expected> {
    let mut allowed = failure(ProgramError::InvalidAccountData);
    if op != "full" && VALIDATES_WHAT_IT_READS.contains(&program.name.as_str()) {
        allowed.push(answer);
    }
    allowed
}

/// Records past the spec's bounds, each encoded by the format's own
/// encoder and padded to the account's length.
fn out_of_bounds() -> Vec<(&'static str, Metadata)> {
    let typical = instance("typical");
    let mut six_creators = instance("full");
    six_creators.creators.as_mut().unwrap().push(Creator {
        address: [1; 32],
        verified: false,
        share: 0,
    });
    vec![
        (
            "key EditionV1",
            Metadata {
                key: Key::EditionV1,
                ..typical.clone()
            },
        ),
        (
            "uri 201 bytes",
            Metadata {
                uri: "u".repeat(MAX_URI + 1),
                ..typical.clone()
            },
        ),
        (
            "name 33 bytes",
            Metadata {
                name: "n".repeat(33),
                ..typical.clone()
            },
        ),
        (
            "symbol 11 bytes",
            Metadata {
                symbol: "s".repeat(11),
                ..typical
            },
        ),
        ("6 creators", six_creators),
    ]
}

#[test]
fn records_past_their_bounds_are_invalid_account_data() {
    assert_clause("past the bounds", |program, format, op| {
        out_of_bounds()
            .into_iter()
            .map(|(label, bad)| {
                let mut input = valid_input(format, op, &bad);
                input.data = (format.encode)(&bad);
                input
                    .data
                    .resize(input.data.len().max(format.account_len()), 0);
                let mut within = bad.clone();
                within.key = Key::MetadataV1;
                let answer = match label {
                    // Every operation reads the key.
                    "key EditionV1" => Expected::Failure(ProgramError::InvalidAccountData),
                    _ => match benchmark_outcome(format, op, &within) {
                        Expected::Success(_) if op.starts_with("read") => {
                            Expected::Success(input.data.clone())
                        }
                        other => other,
                    },
                };
                let allowed = match (label, op) {
                    // The bound an operation reads is always checked.
                    ("6 creators", "verify_creator") | ("uri 201 bytes", "set_uri") => {
                        failure(ProgramError::InvalidAccountData)
                    }
                    _ => damaged(program, op, answer),
                };
                (label.to_string(), input, allowed)
            })
            .collect()
    });
}

/// The position of `text`'s bytes in `data`.
fn find(data: &[u8], text: &str) -> usize {
    data.windows(text.len())
        .position(|w| w == text.as_bytes())
        .unwrap_or_else(|| panic!("`{text}` is not stored as its bytes"))
}

#[test]
fn invalid_utf8_in_each_string_is_invalid_account_data_for_full() {
    assert_clause("invalid UTF-8", |program, format, op| {
        let metadata = instance("typical");
        [&metadata.name, &metadata.symbol, &metadata.uri]
            .into_iter()
            .map(|text| {
                let valid = valid_input(format, op, &metadata);
                let mut input = valid.clone();
                // The string's last byte: 0xc0 is never valid UTF-8, and
                // rkyv ends an inline string at its first 0xff.
                let at = find(&input.data, text) + text.len() - 1;
                input.data[at] = 0xc0;
                // What a format that does not read the damaged string
                // leaves: the valid call's result, the damage kept (a
                // string before the uri stays where it was; `set_uri`
                // replaces the uri unread).
                let answer = match benchmark_outcome(format, op, &metadata) {
                    Expected::Success(_) if op.starts_with("read") => {
                        Expected::Success(input.data.clone())
                    }
                    Expected::Success(after) if op == "set_uri" && text == &metadata.uri => {
                        Expected::Success(after)
                    }
                    Expected::Success(mut after) => {
                        after[at] = 0xc0;
                        Expected::Success(after)
                    }
                    other => other,
                };
                let allowed = damaged(program, op, answer);
                (format!("0xc0 ending `{text}`"), input, allowed)
            })
            .collect()
    });
}

#[test]
fn option_and_key_tags_out_of_range_are_invalid_account_data() {
    // `minimal`'s six options are `None`; each tag is found where the
    // format's encoder writes it (the key's set to 9, each option's to 2).
    assert_clause("tags out of range", |program, format, op| {
        let metadata = instance("minimal");
        let valid = valid_input(format, op, &metadata);
        let after = benchmark_after(op, &metadata);
        let after_tags = after.as_ref().ok().map(one_tag_away);
        one_tag_away(&metadata)
            .into_iter()
            .enumerate()
            .map(|(which, (field, other))| {
                let at = tag_at(format, &metadata, &other);
                let value = if field == "key" { 9 } else { 2 };
                let mut input = valid.clone();
                input.data[at] = value;
                let allowed = if field == "key" {
                    failure(ProgramError::InvalidAccountData)
                } else {
                    // What a format that does not read the tag leaves: the
                    // valid call's result, the damage kept where the tag
                    // sits after it.
                    let answer = match (&after, &after_tags) {
                        (Ok(_), _) if op.starts_with("read") => {
                            Expected::Success(input.data.clone())
                        }
                        (Ok(after), Some(tags)) => {
                            let mut bytes = format.account(after);
                            bytes[tag_at(format, after, &tags[which].1)] = value;
                            Expected::Success(bytes)
                        }
                        (Err(error), _) => Expected::Failure(error.clone()),
                        (Ok(_), None) => unreachable!("tags of every record"),
                    };
                    damaged(program, op, answer)
                };
                (format!("{field} tag = {value}"), input, allowed)
            })
            .collect()
    });
}

#[test]
fn cut_at_every_length_is_refused() {
    assert_clause("the account cut", |program, format, op| {
        let metadata = instance("minimal");
        let valid = valid_input(format, op, &metadata);
        let encoded = (format.encode)(&metadata).len();
        (0..encoded)
            .map(|len| {
                let mut input = valid.clone();
                input.data.truncate(len);
                let answer = match benchmark_outcome(format, op, &metadata) {
                    Expected::Success(_) => Expected::Success(input.data.clone()),
                    other => other,
                };
                (format!("{len} bytes"), input, damaged(program, op, answer))
            })
            .collect()
    });
}

#[test]
fn set_uri_at_the_bound_past_it_and_shrinking() {
    let (programs, mollusk) = load();
    let mut failures = Vec::new();
    for program in &programs {
        let format = format_of(program);
        for name in INSTANCES {
            let metadata = instance(name);
            let valid = valid_input(format, "set_uri", &metadata);
            let with_uri = |uri: &[u8]| Input {
                instruction_data: [&[4][..], uri].concat(),
                ..valid.clone()
            };
            let written = |uri: &str| {
                let after = Metadata {
                    uri: uri.into(),
                    ..metadata.clone()
                };
                vec![Expected::Success(format.account(&after))]
            };
            let at_bound = "é".repeat(MAX_URI / 2);
            let mut immutable = metadata.clone();
            immutable.is_mutable = false;
            let mut on_immutable = valid_input(format, "set_uri", &immutable);
            on_immutable.instruction_data = with_uri(b"https://a").instruction_data;
            let refused = failure(ProgramError::InvalidArgument);
            for (label, input, allowed) in [
                (
                    "at the bound",
                    with_uri(at_bound.as_bytes()),
                    written(&at_bound),
                ),
                (
                    "one past it",
                    with_uri("u".repeat(MAX_URI + 1).as_bytes()),
                    refused.clone(),
                ),
                ("empty (shrinking)", with_uri(b""), written("")),
                ("not UTF-8", with_uri(&[b'h', 0xff]), refused.clone()),
                ("immutable record", on_immutable, refused),
            ] {
                let label = format!("set_uri on {name}, {label}");
                if let Err(e) =
                    crate::check_any(Case::new(program, &label, &input), &mollusk, &allowed)
                {
                    failures.push(e);
                }
            }
        }
    }
    assert!(failures.is_empty(), "set_uri:\n{}", failures.join("\n"));
}

#[test]
fn first_failing_check_wins() {
    assert_clause("the errors' order", |_, format, op| {
        let metadata = instance("typical");
        let valid = valid_input(format, op, &metadata);
        let mut bad_key = valid.data.clone();
        bad_key[key_at(format, &metadata)] = 9;
        let writes = Operation::parse(&valid.instruction_data).unwrap().writes();
        let mut inputs = vec![(
            "1 account, bad op, read-only".to_string(),
            Input {
                account_count: 1,
                instruction_data: vec![9],
                writable: false,
                ..valid.clone()
            },
            failure(ProgramError::NotEnoughAccountKeys),
        )];
        if writes {
            inputs.push((
                "read-only, wrong key, bad key tag".into(),
                Input {
                    writable: false,
                    owner_key: WRONG_KEY,
                    data: bad_key.clone(),
                    ..valid.clone()
                },
                failure(ProgramError::Immutable),
            ));
        }
        if matches!(op, "full" | "set_uri") {
            let mut bad_uri = valid.instruction_data.clone();
            bad_uri.push(0xff);
            inputs.push((
                "wrong key, bad key tag".into(),
                Input {
                    owner_key: WRONG_KEY,
                    data: bad_key,
                    ..valid.clone()
                },
                failure(ProgramError::InvalidAccountData),
            ));
            inputs.push((
                "wrong key, new uri not UTF-8".into(),
                Input {
                    owner_key: WRONG_KEY,
                    instruction_data: bad_uri,
                    ..valid.clone()
                },
                failure(ProgramError::IncorrectAuthority),
            ));
        }
        inputs
    });
}

/// Random and mutated encodings of the three instances, with random
/// operations, account counts, flags and keys: never a VM fault; any error
/// is one of the contract's and leaves every account unchanged; on a valid
/// record (or a call that fails before the data is read) the outcome is
/// exactly the contract's, and after a successful write `full` on the
/// result meets the contract.
#[test]
fn hostile_encodings_meet_the_contract() {
    const CASES_PER_PROGRAM: u32 = 2_000;
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let records = INSTANCES.map(instance);
    for program in &programs {
        let format = format_of(program);
        let accounts: Vec<Vec<u8>> = records.iter().map(|m| format.account(m)).collect();
        let strategy = (
            0..records.len(),
            hostile::mutation(),
            0..OPERATIONS.len() + 1,
            any::<[u8; 40]>(),
            prop_oneof![1 => 0..=1usize, 6 => 2..=3usize],
            prop::bool::weighted(0.85),
            prop::bool::weighted(0.8),
        );
        hostile::run_cases(
            &program.label(),
            CASES_PER_PROGRAM,
            strategy,
            |(which, mutation, op, noise, account_count, writable, right_key)| {
                let record = &records[which];
                let mut input = match OPERATIONS.get(op) {
                    Some(name) => valid_input(format, name, record),
                    None => valid_input(format, "full", record),
                };
                input.data = mutation.apply(&accounts[which]);
                if op == OPERATIONS.len() {
                    input.instruction_data = vec![noise[1]];
                } else if noise[0] % 4 == 0 {
                    input.instruction_data =
                        [&[op as u8][..], &noise[1..1 + noise[2] as usize % 36]].concat();
                }
                input.account_count = account_count;
                input.writable = writable;
                if !right_key {
                    input.owner_key = WRONG_KEY;
                }
                run_hostile(&mollusk, program, format, &input)
            },
        );
    }
}

/// One hostile call: its outcome's name, or why it broke the contract.
fn run_hostile(
    mollusk: &LoggedMollusk,
    program: &Program,
    format: &HostFormat,
    input: &Input,
) -> Result<String, String> {
    let case = Case::new(program, "hostile input", input);
    let decoded = (format.decode)(&input.data);
    let op = Operation::parse(&input.instruction_data).ok();
    let (result, outcome) = mollusk.run(&case);
    let early = matches!(
        &case.expected,
        Expected::Failure(
            ProgramError::NotEnoughAccountKeys
                | ProgramError::InvalidInstructionData
                | ProgramError::Immutable
        )
    );
    let invalid_data = decoded.is_none() && !early;
    match outcome {
        Outcome::Fault(message) => return Err(format!("VM fault: {message}")),
        Outcome::ChangedBeforeFailure(what) => {
            return Err(format!("changed before a failure: {what}"));
        }
        Outcome::OutOfMemory
            if ABORTS_ON_CORRUPT_LENGTH.contains(&program.name.as_str()) && invalid_data =>
        {
            return Ok("out of memory (invalid data, documented)".into());
        }
        Outcome::OutOfMemory => {
            return Err("aborted out of memory, which the README does not document".into());
        }
        Outcome::Success | Outcome::Error(_) => {}
    }
    let is_full = op == Some(Operation::Full);
    let name = program.name.as_str();
    let reads_in_part = VALIDATES_WHAT_IT_READS.contains(&name) && !is_full;
    if invalid_data && (reads_in_part || HOST_READS_CANONICAL_ONLY.contains(&name)) {
        // Answers from what it reads: any of the contract's errors with
        // every account unchanged, or success with the account's length.
        let mut checked = case.clone();
        for error in [
            ProgramError::InvalidAccountData,
            ProgramError::InvalidArgument,
            ProgramError::IncorrectAuthority,
        ] {
            checked.expected = Expected::Failure(error);
            if checked.check(&result).is_ok() {
                return Ok("error (invalid data, read in part)".into());
            }
        }
        return match &result.program_result {
            mollusk_svm::result::ProgramResult::Success
                if result.resulting_accounts[0].1.data.len() == input.data.len() =>
            {
                Ok("success (invalid data, read in part)".into())
            }
            other => Err(format!("{other:?} on invalid data")),
        };
    }
    case.check(&result).map_err(|e| e.to_string())?;
    if let (Expected::Success(after), true) = (&case.expected, op.is_some_and(Operation::writes)) {
        // The write left a record `full` reads and writes as the contract says.
        let again = Input {
            instruction_data: vec![0],
            account_count: 2,
            writable: true,
            data: after.clone(),
            owner_key: decoded
                .as_ref()
                .map_or(input.owner_key, |(m, _)| m.update_authority),
        };
        let full = Case::new(program, "full after a write", &again);
        if !matches!(full.expected, Expected::Success(_)) {
            return Err("a successful write left an account `full` refuses".into());
        }
        let (result, outcome) = mollusk.run(&full);
        if let Outcome::Fault(message) | Outcome::ChangedBeforeFailure(message) = outcome {
            return Err(format!("full after a write: {message}"));
        }
        full.check(&result)
            .map_err(|e| format!("full after a write: {e}"))?;
    }
    Ok(match &case.expected {
        Expected::Success(_) => "success".into(),
        Expected::Failure(error) => format!("{error:?}"),
    })
}

/// The error-path rows: `minimal` has no creators and no collection.
#[test]
fn error_path_rows_are_the_contracts_invalid_argument() {
    let format = common::metadata::host_format("borsh").unwrap();
    let minimal = instance("minimal");
    for op in ["read_collection", "verify_creator"] {
        let input = valid_input(format, op, &minimal);
        assert_eq!(
            metadata::expected(format, &input),
            Err(ProgramError::InvalidArgument),
            "{op}"
        );
    }
}

/// `set_uri` on an account cut at the end of its
/// record (so the longer uri does not fit), for every format and instance.
/// Each program must answer as the contract says, and a refusal must leave
/// every account as it was *inside the VM*, before the runtime's rollback
/// (borsh, wincode, bincode and postcard wrote part of the new record,
/// then returned `InvalidAccountData`).
#[test]
fn set_uri_that_does_not_fit_changes_nothing_inside_the_vm() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let mut failures = Vec::new();
    for program in &programs {
        let format = format_of(program);
        for name in INSTANCES {
            let record = instance(name);
            let input = Input {
                data: (format.encode)(&record),
                ..valid_input(format, "set_uri", &record)
            };
            let case = Case::new(program, format!("set_uri ({name}, cut account)"), &input);
            let (result, outcome) = mollusk.run(&case);
            let verdict = match outcome {
                Outcome::Success | Outcome::Error(_) => {
                    case.check(&result).map_err(|e| e.to_string())
                }
                other => Err(format!("{}: {other:?}", case.operation)),
            };
            if let Err(error) = verdict {
                failures.push(format!("{}: {error}", program.label()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
