//! The message family's contract (docs/message.md), clause
//! by clause, for every program under programs/message/ and every
//! operation, and random or mutated encodings against the contract.

use benches::{
    Case, Expected, Family, Input, Program, Workspace, hostile,
    message::{self, OPERATIONS, SIZES, format_of, instance, valid_input},
    vm::{LoggedMollusk, Outcome},
};
use common::message::{HostFormat, MAX_KEYS, Message, Operation};
use mollusk_svm::Mollusk;
use proptest::prelude::*;
use solana_program_error::ProgramError;

const WRONG_KEY: [u8; 32] = [0x77; 32];

/// Formats whose decode aborts the program, out of memory, on a corrupt
/// length prefix, before the crate can return an error: borsh allocates
/// `min(len, 1 MiB)` zeroed bytes for a `Vec<u8>` before reading it
/// (borsh 1.8.1, `de/mod.rs`, `vec_from_reader`), and nothing in its API
/// bounds that; postcard preallocates the length it reads whenever the rest
/// of the data is at least that many bytes (postcard 1.1.3,
/// `de/deserializer.rs`, `SeqAccess::size_hint`; serde caps it at 1 MiB),
/// so a few thousand claimed keys or instructions outgrow the heap;
/// light-zero-copy allocates its list of instruction views at the count the
/// data claims once the count is below the bytes left (light-zero-copy
/// 0.7.0, `traits/zero_copy_at.rs`, `Vec::zero_copy_at`), and a view is 56
/// bytes, so a count that fits the data can still outgrow the heap (a check
/// of the count before the crate allocates was measured at +24 to +34 CUs
/// on every operation, valid data included; docs/message.md).
/// The programs' allocator is bounded by the family's heap frame (common's
/// `__entrypoint!`), so that allocation is refused and the program aborts
/// in `handle_alloc_error`, told apart from a fault by the runtime's log.
/// Reported in the README; the abort is the only outcome this allows beyond
/// the contract's, only for these formats, only on data that is not a
/// valid encoding (the runtime then discards the instruction's writes).
const ABORTS_ON_CORRUPT_LENGTH: [&str; 3] = ["borsh", "postcard", "light_zero_copy"];
/// Ops that write account [0].
const WRITES: [&str; 2] = ["full", "push_key"];

fn load() -> (Vec<Program>, Mollusk) {
    Workspace::current()
        .load(Family::Message)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Every program and operation: the labelled inputs and their allowed
/// outcomes; one run reports every failure.
fn assert_clause(
    clause: &str,
    inputs: impl Fn(&HostFormat, &str) -> Vec<(String, Input, Vec<Expected>)>,
) {
    let (programs, mollusk) = load();
    let mut failures = Vec::new();
    for program in &programs {
        let format = format_of(program);
        for op in OPERATIONS {
            for (label, input, allowed) in inputs(format, op) {
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

fn encoded(format: &HostFormat, message: &Message) -> Vec<u8> {
    (format.encode)(message)
}

/// The account data a valid call leaves, computed from the logical value
/// (not from the oracle).
fn success(format: &HostFormat, op: &str, message: &Message) -> Vec<Expected> {
    let mut after = message.clone();
    match op {
        "full" => after.nonce += 1,
        "push_key" => after.account_keys.push(message.authority),
        _ => {}
    }
    vec![Expected::Success(encoded(format, &after))]
}

#[test]
fn valid_calls_at_every_size_leave_exact_bytes() {
    assert_clause("valid call", |format, op| {
        SIZES
            .iter()
            .map(|&size| {
                let message = instance(size);
                let input = valid_input(format, op, &message);
                (
                    format!("{size} bytes"),
                    input,
                    success(format, op, &message),
                )
            })
            .collect()
    });
}

#[test]
fn fewer_than_two_accounts_is_not_enough_account_keys() {
    assert_clause("account count", |format, op| {
        (0..2)
            .map(|count| {
                let input = Input {
                    account_count: count,
                    ..valid_input(format, op, &instance(904))
                };
                (
                    format!("{count} accounts"),
                    input,
                    failure(ProgramError::NotEnoughAccountKeys),
                )
            })
            .collect()
    });
}

#[test]
fn bad_instruction_data_is_invalid_instruction_data() {
    assert_clause("instruction data", |format, op| {
        let valid = valid_input(format, op, &instance(904));
        let mut data: Vec<Vec<u8>> = match op {
            // Unknown ops and an empty instruction, once.
            "full" => std::iter::once(vec![])
                .chain((5..=255u8).map(|b| vec![b]))
                .collect(),
            "read_blockhash" => (1..33)
                .map(|n| valid.instruction_data[..n].to_vec())
                .collect(),
            "read_instruction" => (1..3)
                .map(|n| valid.instruction_data[..n].to_vec())
                .collect(),
            _ => Vec::new(),
        };
        data.dedup();
        data.into_iter()
            .map(|instruction_data| {
                let label = format!("{instruction_data:?}");
                let input = Input {
                    instruction_data,
                    ..valid.clone()
                };
                (label, input, failure(ProgramError::InvalidInstructionData))
            })
            .collect()
    });
}

#[test]
fn read_only_account_refuses_writes_only() {
    assert_clause("read-only account", |format, op| {
        let message = instance(904);
        let input = Input {
            writable: false,
            ..valid_input(format, op, &message)
        };
        let expected = if WRITES.contains(&op) {
            failure(ProgramError::Immutable)
        } else {
            success(format, op, &message)
        };
        vec![("read-only".into(), input, expected)]
    });
}

#[test]
fn wrong_authority_is_refused_where_checked() {
    assert_clause("authority", |format, op| {
        let message = instance(904);
        let input = Input {
            owner_key: WRONG_KEY,
            ..valid_input(format, op, &message)
        };
        let expected = if WRITES.contains(&op) {
            failure(ProgramError::IncorrectAuthority)
        } else {
            success(format, op, &message)
        };
        vec![("wrong key".into(), input, expected)]
    });
}

/// The smallest instance cut at every length: the whole-message operations
/// refuse each one; `read_blockhash` and `read_instruction` may succeed
/// where the part they read is whole (a zero-copy format leaves the rest
/// unchecked), but never fault or write.
#[test]
fn truncation_at_every_length_is_invalid_account_data() {
    assert_clause("truncation", |format, op| {
        let message = instance(SIZES[0]);
        let valid = valid_input(format, op, &message);
        let partial_read = !matches!(op, "full" | "sanitize" | "push_key");
        (0..valid.data.len())
            .map(|len| {
                let data = valid.data[..len].to_vec();
                let mut allowed = failure(ProgramError::InvalidAccountData);
                if partial_read {
                    allowed.push(Expected::Success(data.clone()));
                }
                let input = Input {
                    data,
                    ..valid.clone()
                };
                (format!("{len} bytes"), input, allowed)
            })
            .collect()
    });
}

#[test]
fn trailing_bytes_are_refused_by_writes() {
    assert_clause("trailing byte", |format, op| {
        let mut input = valid_input(format, op, &instance(904));
        input.data.push(0);
        // The writes validate the whole message; a read may stop at what
        // it reads (a table-based `sanitize` reads the entries, not the end).
        let mut allowed = failure(ProgramError::InvalidAccountData);
        if !WRITES.contains(&op) {
            allowed.push(Expected::Success(input.data.clone()));
        }
        vec![("one trailing byte".into(), input, allowed)]
    });
}

#[test]
fn operations_own_errors() {
    assert_clause("operation errors", |format, op| {
        let message = instance(904);
        let valid = valid_input(format, op, &message);
        let with = |instruction_data: Vec<u8>| Input {
            instruction_data,
            ..valid.clone()
        };
        let with_message = |message: &Message| Input {
            data: encoded(format, message),
            ..valid.clone()
        };
        let invalid_argument = || failure(ProgramError::InvalidArgument);
        match op {
            "read_blockhash" => {
                let mut wrong = valid.instruction_data.clone();
                wrong[32] ^= 1;
                vec![("other hash".into(), with(wrong), invalid_argument())]
            }
            "read_instruction" => {
                let count = message.instructions.len() as u16;
                let middle = &message.instructions[message.instructions.len() / 2];
                let at = |index: u16, data: &[u8]| [&[3][..], &index.to_le_bytes(), data].concat();
                let mut other = middle.data.clone();
                other[0] ^= 1;
                let longer = [&middle.data[..], &[0]].concat();
                let first = &message.instructions[0].data;
                vec![
                    (
                        "index = count".into(),
                        with(at(count, &middle.data)),
                        invalid_argument(),
                    ),
                    (
                        "index 0xFFFF".into(),
                        with(at(u16::MAX, &middle.data)),
                        invalid_argument(),
                    ),
                    (
                        "other data".into(),
                        with(at(count / 2, &other)),
                        invalid_argument(),
                    ),
                    (
                        "data and one more byte".into(),
                        with(at(count / 2, &longer)),
                        invalid_argument(),
                    ),
                    (
                        "first instruction".into(),
                        with(at(0, first)),
                        success(format, op, &message),
                    ),
                ]
            }
            "sanitize" => {
                let keys = message.account_keys.len() as u8;
                let mut bad_program = message.clone();
                bad_program.instructions[0].program_id_index = keys;
                let mut bad_account = message.clone();
                let last = bad_account.instructions.len() - 1;
                bad_account.instructions[last].accounts[1] = 255;
                let mut at_limit = message.clone();
                at_limit.instructions[0].accounts[0] = keys - 1;
                vec![
                    (
                        "program index = key count".into(),
                        with_message(&bad_program),
                        failure(ProgramError::InvalidAccountData),
                    ),
                    (
                        "account index 255".into(),
                        with_message(&bad_account),
                        failure(ProgramError::InvalidAccountData),
                    ),
                    (
                        "account index = key count - 1".into(),
                        with_message(&at_limit),
                        success(format, op, &at_limit),
                    ),
                ]
            }
            "push_key" => {
                let mut full = message.clone();
                full.account_keys.resize(MAX_KEYS, [9; 32]);
                let mut before_128 = message.clone();
                before_128.account_keys.resize(127, [5; 32]);
                let mut at_128 = message.clone();
                at_128.account_keys.resize(128, [5; 32]);
                vec![
                    ("255 keys".into(), with_message(&full), invalid_argument()),
                    (
                        "127 keys".into(),
                        with_message(&before_128),
                        success(format, op, &before_128),
                    ),
                    (
                        "128 keys".into(),
                        with_message(&at_128),
                        success(format, op, &at_128),
                    ),
                ]
            }
            _ => Vec::new(),
        }
    });
}

#[test]
fn first_failing_check_wins() {
    assert_clause("check order", |format, op| {
        let message = instance(904);
        let valid = valid_input(format, op, &message);
        let truncated = valid.data[..valid.data.len() / 2].to_vec();
        let everything_wrong = Input {
            instruction_data: vec![9],
            account_count: 1,
            writable: false,
            data: truncated.clone(),
            owner_key: WRONG_KEY,
        };
        let bad_op = Input {
            account_count: 2,
            ..everything_wrong.clone()
        };
        let read_only = Input {
            instruction_data: valid.instruction_data.clone(),
            ..bad_op.clone()
        };
        let bad_data = Input {
            writable: true,
            ..read_only.clone()
        };
        let mut cases = vec![
            (
                "everything wrong".into(),
                everything_wrong,
                failure(ProgramError::NotEnoughAccountKeys),
            ),
            (
                "bad op, read-only, data, key".into(),
                bad_op,
                failure(ProgramError::InvalidInstructionData),
            ),
        ];
        if WRITES.contains(&op) {
            let mut full_keys = message.clone();
            full_keys.account_keys.resize(MAX_KEYS, [9; 32]);
            cases.push((
                "read-only, bad data, key".into(),
                read_only,
                failure(ProgramError::Immutable),
            ));
            cases.push((
                "bad data, key".into(),
                bad_data,
                failure(ProgramError::InvalidAccountData),
            ));
            if op == "push_key" {
                let input = Input {
                    data: encoded(format, &full_keys),
                    owner_key: WRONG_KEY,
                    ..valid.clone()
                };
                cases.push((
                    "wrong key, 255 keys".into(),
                    input,
                    failure(ProgramError::IncorrectAuthority),
                ));
            }
        }
        cases
    });
}

/// Hostile encodings with random operations, at least 2,000 per program
/// (`benches::hostile`: bit flips, cuts, counts and length prefixes set to
/// values past the data and the heap, bytes set to 0x00/0xff, overlong
/// varints, random data): never a VM fault; an out-of-memory abort only
/// for the formats the README names, on data that is not a valid encoding;
/// any error is one of the contract's and leaves every account unchanged;
/// where the data is a valid encoding, or the call fails before the data
/// is read, the outcome is exactly the contract's; and after every
/// successful write, `full` on the result meets the contract and the result
/// decodes to the record the write should leave.
#[test]
fn hostile_encodings_meet_the_contract() {
    const CASES_PER_PROGRAM: u32 = 2_000;
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let messages = [instance(SIZES[0]), instance(SIZES[1]), instance(SIZES[2])];
    for program in &programs {
        let format = format_of(program);
        let encodings: Vec<Vec<u8>> = messages.iter().map(|m| encoded(format, m)).collect();
        let strategy = (
            0..messages.len(),
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
                let message = &messages[which];
                let data = mutation.apply(&encodings[which]);
                let instruction_data = match OPERATIONS.get(op) {
                    Some(name) if noise[0] % 4 != 0 => message::instruction_data(name, message),
                    Some(_) => [&[op as u8][..], &noise[1..1 + noise[2] as usize % 36]].concat(),
                    None => vec![noise[1]],
                };
                let input = Input {
                    instruction_data,
                    account_count,
                    writable,
                    data,
                    owner_key: if right_key {
                        message.authority
                    } else {
                        WRONG_KEY
                    },
                };
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
    let writes = op.is_some_and(Operation::writes);
    if let (Some(message), Some(Operation::Full)) = (&decoded, op) {
        let canonical = (format.encode)(message);
        if canonical != input.data {
            let on_canonical = Input {
                data: canonical,
                ..input.clone()
            };
            if let Expected::Success(_) = Case::new(program, "", &on_canonical).expected {
                return full_on_non_canonical(mollusk, program, &case, format, message, true);
            }
        }
    }
    let (result, outcome) = mollusk.run(&case);
    let early = matches!(
        &case.expected,
        Expected::Failure(
            ProgramError::NotEnoughAccountKeys
                | ProgramError::InvalidInstructionData
                | ProgramError::Immutable
        )
    );
    // The data is not a valid encoding and the operation gets to read it.
    let invalid_data = decoded.is_none() && !early;
    let mut allowed = vec![case.expected.clone()];
    if invalid_data {
        // A write refuses it; a read may answer from the part it reads.
        allowed = vec![Expected::Failure(ProgramError::InvalidAccountData)];
        if !writes {
            allowed.push(Expected::Failure(ProgramError::InvalidArgument));
            allowed.push(Expected::Success(input.data.clone()));
        }
    }
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
        Outcome::OutOfMemory => return Err(
            "aborted out of memory, which the README does not document for this format and input"
                .into(),
        ),
        Outcome::Success | Outcome::Error(_) => {}
    }
    let mut checked = case.clone();
    let Some(expected) = allowed.iter().find(|expected| {
        checked.expected = (*expected).clone();
        checked.check(&result).is_ok()
    }) else {
        return Err(format!("{:?}; allowed {allowed:?}", result.program_result));
    };
    if let (Expected::Success(after), Some(message)) = (expected, &decoded)
        && writes
    {
        let mut want = message.clone();
        match op {
            Some(Operation::Full) => want.nonce = want.nonce.wrapping_add(1),
            _ => want.account_keys.push(input.owner_key),
        }
        read_back(mollusk, program, format, after, &want)?;
    }
    let invalid = if invalid_data { " (invalid data)" } else { "" };
    Ok(format!("{}{invalid}", describe(expected)))
}

/// Damaged accounts found in review, each run as the hostile test runs it
/// (never a fault; a write that succeeds is read back), with the outcome
/// each must have.
#[test]
fn damaged_accounts_reported_in_review() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let program = |name: &str| {
        programs
            .iter()
            .find(|p| p.name == name)
            .unwrap_or_else(|| panic!("no message program `{name}`"))
    };
    const OOM: &str = "out of memory (invalid data, documented)";
    let set_u32 = |at: usize, value: u32| {
        move |d: &mut Vec<u8>| d[at..at + 4].copy_from_slice(&value.to_le_bytes())
    };
    type Edit = Box<dyn Fn(&mut Vec<u8>)>;
    let cases: Vec<(&str, usize, Edit, &str, &[&str])> = vec![
        // A data length prefix claiming 64-256 KiB: the allocation does not
        // fit the 64 KiB frame and is refused, never handed out.
        (
            "borsh",
            160,
            Box::new(set_u32(151, 0x10000)),
            "read_blockhash",
            &[OOM],
        ),
        (
            "borsh",
            160,
            Box::new(set_u32(151, 0x10000)),
            "full",
            &[OOM],
        ),
        (
            "borsh",
            160,
            Box::new(set_u32(151, 0x20000)),
            "read_blockhash",
            &[OOM],
        ),
        (
            "borsh",
            160,
            Box::new(set_u32(151, 0x30000)),
            "full",
            &[OOM],
        ),
        (
            "borsh",
            160,
            Box::new(set_u32(151, 0x40000)),
            "full",
            &[OOM],
        ),
        (
            "borsh",
            10136,
            Box::new(|d: &mut Vec<u8>| d[6392] = 0xff),
            "sanitize",
            &[OOM],
        ),
        (
            "postcard",
            3232,
            Box::new(|d: &mut Vec<u8>| d[34..42].copy_from_slice(&(1u64 << 63).to_le_bytes())),
            "full",
            &[OOM, "InvalidAccountData (invalid data)"],
        ),
        // An overlong varint: a valid, non-canonical encoding. `full` used
        // to write the shorter canonical bytes over it and leave a tail.
        (
            "postcard",
            160,
            Box::new(|d: &mut Vec<u8>| {
                d[107] = 0xff;
                d[108] = 0xff;
                d[34] = 0x00;
                d[38] = 0x26;
            }),
            "full",
            &["InvalidAccountData (non-canonical encoding)"],
        ),
        // Unused bytes in the archive: `push_key` writes the canonical
        // archive of the message with one more key (read back).
        (
            "rkyv",
            904,
            Box::new(|d: &mut Vec<u8>| {
                d[117] = 0xff;
                d[852] = 0x0d;
            }),
            "push_key",
            &["success"],
        ),
    ];
    let mut failures = Vec::new();
    for (name, size, edit, op, allowed) in cases {
        let program = program(name);
        let format = format_of(program);
        let message = instance(size);
        let mut input = valid_input(format, op, &message);
        edit(&mut input.data);
        match run_hostile(&mollusk, program, format, &input) {
            Ok(outcome) if allowed.contains(&outcome.as_str()) => {}
            Ok(outcome) => failures.push(format!(
                "{name} {op} at {size}: {outcome}, expected one of {allowed:?}"
            )),
            Err(error) => failures.push(format!("{name} {op} at {size}: {error}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `full` on a valid encoding that is not the format's canonical one
/// (rkyv does not check padding or unused bytes; postcard reads overlong
/// varints): the program either refuses it (`InvalidAccountData`, nothing
/// written) or leaves an account of the same length that decodes to the
/// bumped message and that `full` reads back. Writing the canonical
/// encoding over the start of a longer one would leave a tail no decode
/// accepts, so it is not allowed.
fn full_on_non_canonical(
    mollusk: &LoggedMollusk,
    program: &Program,
    case: &Case,
    format: &HostFormat,
    message: &Message,
    then_read_back: bool,
) -> Result<String, String> {
    let (result, outcome) = mollusk.run(case);
    if let Outcome::ChangedBeforeFailure(what) = &outcome {
        return Err(format!("changed before a failure: {what}"));
    }
    let before = &case.accounts[0].1.data;
    let mut bumped = message.clone();
    bumped.nonce = bumped.nonce.wrapping_add(1);
    let mut checked = case.clone();
    checked.expected = Expected::Failure(ProgramError::InvalidAccountData);
    if checked.check(&result).is_ok() {
        return Ok("InvalidAccountData (non-canonical encoding)".into());
    }
    if outcome != Outcome::Success {
        return Err(format!(
            "{outcome:?} on a non-canonical encoding; allowed: InvalidAccountData, or success"
        ));
    }
    let after = &result.resulting_accounts[0].1.data;
    if after.len() != before.len() {
        return Err(format!(
            "full on a non-canonical encoding changed the length {} -> {}",
            before.len(),
            after.len()
        ));
    }
    checked.expected = Expected::Success(after.clone());
    checked.check(&result).map_err(|e| e.to_string())?;
    if (format.decode)(after).as_ref() != Some(&bumped) {
        return Err("full on a non-canonical encoding left another record".into());
    }
    if then_read_back {
        read_back(mollusk, program, format, after, &bumped)?;
    }
    Ok("success (non-canonical encoding)".into())
}

/// After a successful write: the account decodes to `want`, and `full` on
/// it meets the contract (for a non-canonical result, as above).
fn read_back(
    mollusk: &LoggedMollusk,
    program: &Program,
    format: &HostFormat,
    data: &[u8],
    want: &Message,
) -> Result<(), String> {
    let decoded = (format.decode)(data)
        .ok_or_else(|| "a successful write left an account that does not decode".to_string())?;
    if &decoded != want {
        return Err("a successful write left an account that decodes to another record".into());
    }
    let input = Input {
        instruction_data: vec![0],
        account_count: 2,
        writable: true,
        data: data.to_vec(),
        owner_key: want.authority,
    };
    let case = Case::new(program, "full after a write", &input);
    let outcome = if (format.encode)(want) == data {
        let (result, outcome) = mollusk.run(&case);
        if let Outcome::Fault(message) | Outcome::ChangedBeforeFailure(message) = outcome {
            return Err(format!("full after a write: {message}"));
        }
        case.check(&result).map_err(|e| e.to_string())
    } else {
        full_on_non_canonical(mollusk, program, &case, format, want, false).map(|_| ())
    };
    outcome.map_err(|e| format!("full after a successful write: {e}"))
}

fn describe(expected: &Expected) -> String {
    match expected {
        Expected::Success(_) => "success".into(),
        Expected::Failure(error) => format!("{error:?}"),
    }
}

/// A damaged instruction count that fits the
/// data's length but not the heap (the `u64` 11 written over its second
/// byte, so the 10 KB instance claims thousands of instructions). Every
/// program and operation must refuse it with `InvalidAccountData` (a read
/// may answer from what it reads), or abort out of memory where that is
/// documented (`ABORTS_ON_CORRUPT_LENGTH`; light-zero-copy allocates its
/// list of instruction views at the claimed count), and change nothing
/// inside the VM either way.
#[test]
fn instruction_count_past_the_heap_is_an_error_not_an_abort() {
    let (programs, mollusk) = load();
    let mollusk = LoggedMollusk::new(mollusk);
    let message = instance(SIZES[5]);
    let mut failures = Vec::new();
    for program in &programs {
        let format = format_of(program);
        let mut data = encoded(format, &message);
        let Some(count_at) = instruction_count_at(program, &message) else {
            continue;
        };
        data[count_at + 1..count_at + 9].copy_from_slice(&11u64.to_le_bytes());
        for op in OPERATIONS {
            let input = Input {
                data: data.clone(),
                ..message::valid_input(format, op, &message)
            };
            let case = Case::new(program, format!("{op} (claimed count)"), &input);
            let (result, outcome) = mollusk.run(&case);
            let allowed = match outcome {
                Outcome::Success | Outcome::Error(_) => {
                    matches!(
                        result.program_result,
                        mollusk_svm::result::ProgramResult::Failure(
                            ProgramError::InvalidAccountData
                        )
                    ) || !WRITES.contains(&op)
                }
                Outcome::OutOfMemory => ABORTS_ON_CORRUPT_LENGTH.contains(&program.name.as_str()),
                _ => false,
            };
            if !allowed {
                failures.push(format!("{} {op}: {outcome:?}", program.label()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where a format with fixed-width counts keeps the instruction count:
/// after the authority, the nonce, the key count and keys, and the
/// blockhash (`u32` counts for borsh's bytes, `u64` for bincode's and
/// wincode's). `None` for the other layouts.
fn instruction_count_at(program: &Program, message: &Message) -> Option<usize> {
    let count_width = match program.name.as_str() {
        "borsh" | "light_zero_copy" => 4,
        "bincode" | "wincode" => 8,
        _ => return None,
    };
    Some(32 + 8 + count_width + 32 * message.account_keys.len() + 32)
}
