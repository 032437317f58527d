//! The message family's contract (shared/specs/message-family.md), clause
//! by clause, for every program under programs/message/ and every
//! operation, and random or mutated encodings against the contract.

use std::{cell::RefCell, collections::BTreeMap};

use benches::{
    Case, Expected, Family, Input, Program, Workspace,
    message::{self, OPERATIONS, SIZES, format_of, instance, valid_input},
};
use common::message::{HostFormat, MAX_KEYS, Message};
use mollusk_svm::{Mollusk, result::ProgramResult};
use proptest::{
    prelude::*,
    test_runner::{Config, TestCaseError, TestError, TestRunner},
};
use solana_program_error::ProgramError;

const WRONG_KEY: [u8; 32] = [0x77; 32];

/// Formats whose decode aborts the program, out of memory, on a corrupt
/// length prefix, before the crate can return an error: borsh allocates
/// `min(len, 1 MiB)` zeroed bytes for a `Vec<u8>` before reading it
/// (borsh 1.8.1, `de/mod.rs`, `vec_from_reader`), and nothing in its API
/// bounds that; postcard preallocates the length it reads whenever the rest
/// of the data is at least that many bytes (postcard 1.1.3,
/// `de/deserializer.rs`, `SeqAccess::size_hint`; serde caps it at 1 MiB),
/// so a few thousand claimed keys or instructions outgrow the heap.
/// Reported in the README; the abort is the only outcome this allows beyond
/// the contract's, only on data that is not a valid encoding, and only with
/// every account unchanged.
const ABORTS_ON_CORRUPT_LENGTH: [&str; 2] = ["borsh", "postcard"];
/// Ops that write account [0].
const WRITES: [&str; 2] = ["full", "push_key"];

fn load() -> (Vec<Program>, Mollusk) {
    Workspace::current()
        .load(Family::Message)
        .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs `input` and accepts any one of `allowed` outcomes; the message
/// says which program, operation and label failed.
fn check(
    mollusk: &Mollusk,
    program: &Program,
    label: &str,
    input: &Input,
    allowed: &[Expected],
) -> Result<(), String> {
    let mut case = Case::new(program, label, input);
    let result = mollusk.process_instruction(&case.instruction, &case.accounts);
    let mut errors = Vec::new();
    for expected in allowed {
        case.expected = expected.clone();
        match case.check(&result) {
            Ok(()) => return Ok(()),
            Err(error) => errors.push(error.to_string()),
        }
    }
    Err(errors.join(" / or / "))
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
                if let Err(error) = check(&mollusk, program, &label, &input, &allowed) {
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

/// Random and mutated encodings with random operations: never a VM fault;
/// any error is one of the contract's and leaves every account unchanged;
/// where the data is a valid encoding, or the call fails before the data
/// is read, the outcome is exactly the contract's.
#[test]
fn random_and_mutated_encodings_meet_the_contract() {
    const CASES_PER_PROGRAM: u32 = 500;
    let (programs, mollusk) = load();
    let messages = [instance(SIZES[0]), instance(SIZES[1])];
    for program in &programs {
        let format = format_of(program);
        let encodings: Vec<Vec<u8>> = messages.iter().map(|m| encoded(format, m)).collect();
        let outcomes = RefCell::new(BTreeMap::<String, u32>::new());
        let strategy = (
            0..messages.len(),
            mutation(),
            0..OPERATIONS.len() + 1,
            any::<[u8; 40]>(),
            prop_oneof![1 => 0..=1usize, 6 => 2..=3usize],
            prop::bool::weighted(0.85),
            prop::bool::weighted(0.8),
        );
        let mut runner = TestRunner::new(Config {
            cases: CASES_PER_PROGRAM,
            failure_persistence: None,
            ..Config::default()
        });
        let result = runner.run(
            &strategy,
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
                let outcome =
                    run_random(&mollusk, program, format, &input).map_err(TestCaseError::fail)?;
                *outcomes.borrow_mut().entry(outcome).or_default() += 1;
                Ok(())
            },
        );
        match result {
            Ok(()) => eprintln!(
                "{}: {CASES_PER_PROGRAM} cases, each as the contract allows; outcomes {:?}",
                program.label(),
                outcomes.borrow()
            ),
            Err(TestError::Fail(reason, input)) => {
                panic!("{}: {reason}\nshrunk input: {input:?}", program.label())
            }
            Err(error) => panic!("{}: {error}", program.label()),
        }
    }
}

/// One random call: its outcome's name, or why it broke the contract.
fn run_random(
    mollusk: &Mollusk,
    program: &Program,
    format: &HostFormat,
    input: &Input,
) -> Result<String, String> {
    let case = Case::new(program, "random input", input);
    let decoded = (format.decode)(&input.data);
    let valid_data = decoded.is_some();
    if let (Some(message), Expected::Success(_), Some(0)) =
        (&decoded, &case.expected, input.instruction_data.first())
    {
        return full_on_any_encoding(mollusk, &case, format, message, &input.data);
    }
    let early = matches!(
        &case.expected,
        Expected::Failure(
            ProgramError::NotEnoughAccountKeys
                | ProgramError::InvalidInstructionData
                | ProgramError::Immutable
        )
    );
    if valid_data || early {
        case.run(mollusk).map_err(|e| e.to_string())?;
        return Ok(describe(&case.expected));
    }
    // The data is not a valid encoding and the operation reads it.
    let result = mollusk.process_instruction(&case.instruction, &case.accounts);
    let writes = matches!(input.instruction_data.first(), Some(0 | 4));
    let mut allowed = vec![Expected::Failure(ProgramError::InvalidAccountData)];
    if !writes {
        allowed.push(Expected::Failure(ProgramError::InvalidArgument));
        allowed.push(Expected::Success(input.data.clone()));
    }
    let mut checked = case.clone();
    for expected in &allowed {
        checked.expected = expected.clone();
        if checked.check(&result).is_ok() {
            return Ok(format!("{} (invalid data)", describe(expected)));
        }
    }
    let unchanged = result
        .resulting_accounts
        .iter()
        .zip(&case.accounts)
        .all(|((_, got), (_, want))| got == want);
    if ABORTS_ON_CORRUPT_LENGTH.contains(&program.name.as_str())
        && unchanged
        && matches!(
            result.program_result,
            ProgramResult::UnknownError(
                solana_instruction::error::InstructionError::ProgramFailedToComplete
            )
        )
    {
        return Ok("aborted out of memory (invalid data)".into());
    }
    Err(match &result.program_result {
        ProgramResult::UnknownError(error) => format!("VM fault {error:?} on invalid data"),
        got => format!("{got:?} on invalid data; allowed {allowed:?}"),
    })
}

/// `full` on data that decodes. On the canonical encoding the outcome is
/// exactly the contract's. A format may also accept other encodings of the
/// same message (rkyv does not check padding bytes; postcard reads overlong
/// varints); on those, `full` may bump the nonce in place (the bytes that
/// encoding the bumped message changes), or write the canonical encoding
/// over the start of the old bytes, or refuse it where it does not fit.
fn full_on_any_encoding(
    mollusk: &Mollusk,
    case: &Case,
    format: &HostFormat,
    message: &Message,
    data: &[u8],
) -> Result<String, String> {
    let before = (format.encode)(message);
    if before == data {
        case.run(mollusk).map_err(|e| e.to_string())?;
        return Ok(describe(&case.expected));
    }
    let mut bumped = message.clone();
    bumped.nonce = bumped.nonce.wrapping_add(1);
    let after = (format.encode)(&bumped);
    let mut allowed = Vec::new();
    if before.len() == data.len() {
        let in_place = data
            .iter()
            .zip(before.iter().zip(&after))
            .map(|(&old, (&b, &a))| if b == a { old } else { a })
            .collect();
        allowed.push(Expected::Success(in_place));
    }
    if let Some(start) = data.get(..after.len()) {
        let mut over = data.to_vec();
        over[..start.len()].copy_from_slice(&after);
        allowed.push(Expected::Success(over));
    } else {
        allowed.push(Expected::Failure(ProgramError::InvalidAccountData));
    }
    let result = mollusk.process_instruction(&case.instruction, &case.accounts);
    let mut checked = case.clone();
    for expected in &allowed {
        checked.expected = expected.clone();
        if checked.check(&result).is_ok() {
            return Ok(format!("{} (non-canonical encoding)", describe(expected)));
        }
    }
    Err(format!(
        "{:?} on a non-canonical encoding; allowed {allowed:?}",
        result.program_result
    ))
}

fn describe(expected: &Expected) -> String {
    match expected {
        Expected::Success(_) => "success".into(),
        Expected::Failure(error) => format!("{error:?}"),
    }
}

/// How a valid encoding is damaged.
#[derive(Clone, Debug)]
enum Mutation {
    None,
    /// Flip bit `bit` of the byte at `at` (modulo the length), `count` times
    /// at successive positions.
    BitFlips {
        at: usize,
        bit: u8,
        count: usize,
    },
    /// Keep the first `len` bytes (modulo the length).
    Truncate(usize),
    /// Add `delta` to the byte at `at`: length prefixes and counts grow or
    /// shrink.
    Bump {
        at: usize,
        delta: u8,
    },
    /// Append bytes.
    Extend(Vec<u8>),
    /// Replace everything with random bytes.
    Random(Vec<u8>),
}

impl Mutation {
    fn apply(&self, valid: &[u8]) -> Vec<u8> {
        let mut data = valid.to_vec();
        let len = data.len().max(1);
        match self {
            Mutation::None => {}
            Mutation::BitFlips { at, bit, count } => {
                for i in 0..*count {
                    if let Some(byte) = data.get_mut((at + i * 7) % len) {
                        *byte ^= 1 << bit;
                    }
                }
            }
            Mutation::Truncate(keep) => data.truncate(keep % len),
            Mutation::Bump { at, delta } => {
                if let Some(byte) = data.get_mut(at % len) {
                    *byte = byte.wrapping_add(*delta);
                }
            }
            Mutation::Extend(extra) => data.extend(extra),
            Mutation::Random(bytes) => data = bytes.clone(),
        }
        data
    }
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => Just(Mutation::None),
        3 => (any::<usize>(), 0..8u8, 1..4usize)
            .prop_map(|(at, bit, count)| Mutation::BitFlips { at, bit, count }),
        2 => any::<usize>().prop_map(Mutation::Truncate),
        3 => (any::<usize>(), prop_oneof![Just(1u8), Just(255u8), any::<u8>()])
            .prop_map(|(at, delta)| Mutation::Bump { at, delta }),
        1 => prop::collection::vec(any::<u8>(), 1..40).prop_map(Mutation::Extend),
        1 => prop::collection::vec(any::<u8>(), 0..400).prop_map(Mutation::Random),
    ]
}
