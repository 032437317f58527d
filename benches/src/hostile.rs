//! Damaged accounts, for every family's property tests: how a valid
//! encoding is damaged ([`Mutation`], [`mutation`]), and each call checked
//! against its contract ([`check_call`]) from what the VM reports of it
//! ([`crate::vm::Outcome`]): an error must change nothing.

use std::{cell::RefCell, collections::BTreeMap, fmt::Debug};

use crate::{
    Case, Expected, Input, Program,
    vm::{LoggedMollusk, Outcome},
};
use proptest::{
    prelude::*,
    test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner},
};

/// The largest heap frame a transaction may request: length prefixes are
/// set to values between the account's length and this (and beyond).
pub const MAX_HEAP: u64 = 256 * 1024;

/// How a valid encoding is damaged. Positions are taken modulo the data's
/// length; a [`Position::LengthLike`] one picks among the bytes that look
/// like the low byte of a little-endian length or count (non-zero, then a
/// zero byte), which is where length prefixes and counts sit in every
/// format here.
#[derive(Clone, Debug)]
pub enum Mutation {
    None,
    /// Flip bit `bit` of `count` bytes, 7 apart from `at`.
    BitFlips {
        at: Position,
        bit: u8,
        count: usize,
    },
    /// Keep the first `len` bytes (modulo the length).
    Truncate(usize),
    /// Add `delta` to the byte at `at`: counts grow or shrink by a little.
    Bump {
        at: Position,
        delta: u8,
    },
    /// Set the byte at `at` to `value` (`0x00`, `0xff`, anything).
    SetByte {
        at: Position,
        value: u8,
    },
    /// Overwrite `width` bytes at `at` with `value`, little-endian: a
    /// fixed-width length prefix that claims `value`.
    SetInt {
        at: Position,
        width: u8,
        value: u64,
    },
    /// Overwrite `width` bytes at `at` with the count the bytes after it
    /// can hold at `per_element` bytes an element: a count a crate's guard
    /// of "no more elements than bytes left" passes, but whose decoded
    /// elements (larger than their encoding) may not fit the heap.
    SetFittingCount {
        at: Position,
        width: u8,
        per_element: u8,
    },
    /// Overwrite the bytes at `at` with `value` as a LEB128 varint: a
    /// varint length that claims `value`.
    SetVarint {
        at: Position,
        value: u64,
    },
    /// Re-encode the byte at `at`, where it is below `0x80`, as a 2- to
    /// 10-byte overlong LEB128 varint of the same value (`extra` more
    /// bytes): a valid but non-canonical encoding in varint formats.
    Overlong {
        at: Position,
        extra: u8,
    },
    /// Append bytes.
    Extend(Vec<u8>),
    /// Replace everything with random bytes.
    Random(Vec<u8>),
}

/// Where a mutation lands.
#[derive(Clone, Copy, Debug)]
pub enum Position {
    /// Any byte.
    Any(usize),
    /// One of the bytes that look like a length (see [`Mutation`]), or any
    /// byte where there is none.
    LengthLike(usize),
    /// One of the bytes that look like a fixed-width count: the low byte
    /// of a little-endian `u32` below 256 (non-zero, three zero bytes
    /// after it), where fixed-width formats keep their counts and random
    /// data rarely looks like one, half the time among the first four; a
    /// length-like byte where there is none.
    CountLike(usize),
}

impl Position {
    fn resolve(self, data: &[u8]) -> Option<usize> {
        if data.is_empty() {
            return None;
        }
        match self {
            Self::Any(at) => Some(at % data.len()),
            Self::LengthLike(at) => {
                let candidates: Vec<usize> = (0..data.len())
                    .filter(|&i| data[i] != 0 && data.get(i + 1).is_none_or(|&next| next == 0))
                    .collect();
                match candidates.len() {
                    0 => Some(at % data.len()),
                    n => Some(candidates[at % n]),
                }
            }
            Self::CountLike(at) => {
                // The outermost counts come first in every layout here:
                // half the picks are among the first four.
                let candidates: Vec<usize> = (0..data.len().saturating_sub(3))
                    .filter(|&i| data[i] != 0 && data[i + 1..i + 4] == [0, 0, 0])
                    .collect();
                match candidates.len() {
                    0 => Self::LengthLike(at).resolve(data),
                    n if at % 2 == 0 => Some(candidates[(at / 2) % n.min(4)]),
                    n => Some(candidates[at % n]),
                }
            }
        }
    }
}

impl Mutation {
    pub fn apply(&self, valid: &[u8]) -> Vec<u8> {
        let mut data = valid.to_vec();
        match self {
            Self::None => {}
            Self::BitFlips { at, bit, count } => {
                if let Some(at) = at.resolve(&data) {
                    let len = data.len();
                    for i in 0..*count {
                        data[(at + i * 7) % len] ^= 1 << bit;
                    }
                }
            }
            Self::Truncate(keep) => data.truncate(keep % data.len().max(1)),
            Self::Bump { at, delta } => {
                if let Some(at) = at.resolve(&data) {
                    data[at] = data[at].wrapping_add(*delta);
                }
            }
            Self::SetByte { at, value } => {
                if let Some(at) = at.resolve(&data) {
                    data[at] = *value;
                }
            }
            Self::SetInt { at, width, value } => {
                if let Some(at) = at.resolve(&data) {
                    overwrite(&mut data, at, &value.to_le_bytes()[..*width as usize]);
                }
            }
            Self::SetFittingCount {
                at,
                width,
                per_element,
            } => {
                if let Some(at) = at.resolve(&data) {
                    let left = data.len() - at - (*width as usize).min(data.len() - at);
                    let value = (left / (*per_element).max(1) as usize) as u64;
                    overwrite(&mut data, at, &value.to_le_bytes()[..*width as usize]);
                }
            }
            Self::SetVarint { at, value } => {
                if let Some(at) = at.resolve(&data) {
                    overwrite(&mut data, at, &leb128(*value));
                }
            }
            Self::Overlong { at, extra } => {
                if let Some(at) = at.resolve(&data)
                    && data[at] < 0x80
                {
                    let extra = 1 + *extra as usize % 9;
                    let mut bytes = vec![0x80; extra];
                    bytes[0] |= data[at];
                    bytes.push(0);
                    data.splice(at..=at, bytes);
                }
            }
            Self::Extend(extra) => data.extend(extra),
            Self::Random(bytes) => data.clone_from(bytes),
        }
        data
    }
}

/// Writes `bytes` at `at`, cut at the end of the data.
fn overwrite(data: &mut [u8], at: usize, bytes: &[u8]) {
    let end = (at + bytes.len()).min(data.len());
    data[at..end].copy_from_slice(&bytes[..end - at]);
}

fn leb128(mut value: u64) -> Vec<u8> {
    let mut bytes = Vec::new();
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            bytes.push(low);
            return bytes;
        }
        bytes.push(low | 0x80);
    }
}

/// A claimed length: past the data, up to and past the largest heap, and
/// the extremes.
fn claimed_length() -> impl Strategy<Value = u64> {
    prop_oneof![
        3 => 1..=16 * 1024u64,
        3 => 16 * 1024..=MAX_HEAP,
        1 => MAX_HEAP..=1 << 24,
        1 => any::<u32>().prop_map(u64::from),
        1 => Just(1 << 63),
        1 => Just(u64::MAX),
    ]
}

fn position() -> impl Strategy<Value = Position> {
    prop_oneof![
        any::<usize>().prop_map(Position::Any),
        any::<usize>().prop_map(Position::LengthLike)
    ]
}

/// Where a count sits: mostly a fixed-width-count-like byte.
fn count_position() -> impl Strategy<Value = Position> {
    prop_oneof![
        1 => position(),
        3 => any::<usize>().prop_map(Position::CountLike),
    ]
}

/// The hostile generator every family's property test draws from: a share
/// of undamaged encodings, then bit flips, cuts, bumped counts, bytes set
/// to `0x00`/`0xff`, length prefixes and varints claiming lengths up to and
/// past the heap, counts that fit the data's length but not the heap,
/// overlong varints, appended and random bytes.
pub fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        2 => Just(Mutation::None),
        2 => (position(), 0..8u8, 1..4usize)
            .prop_map(|(at, bit, count)| Mutation::BitFlips { at, bit, count }),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        2 => (position(), prop_oneof![Just(1u8), Just(255u8), any::<u8>()])
            .prop_map(|(at, delta)| Mutation::Bump { at, delta }),
        2 => (position(), prop_oneof![Just(0u8), Just(0xffu8), any::<u8>()])
            .prop_map(|(at, value)| Mutation::SetByte { at, value }),
        3 => (position(), prop_oneof![Just(1u8), Just(2u8), Just(4u8), Just(8u8)], claimed_length())
            .prop_map(|(at, width, value)| Mutation::SetInt { at, width, value }),
        3 => (count_position(), prop_oneof![Just(2u8), Just(4u8), Just(8u8)], prop_oneof![3 => 1..=2u8, 1 => 1..=16u8])
            .prop_map(|(at, width, per_element)| Mutation::SetFittingCount { at, width, per_element }),
        1 => (position(), claimed_length()).prop_map(|(at, value)| Mutation::SetVarint { at, value }),
        2 => (position(), any::<u8>()).prop_map(|(at, extra)| Mutation::Overlong { at, extra }),
        1 => prop::collection::vec(any::<u8>(), 1..40).prop_map(Mutation::Extend),
        1 => prop::collection::vec(any::<u8>(), 0..400).prop_map(Mutation::Random),
    ]
}

/// One input against its contract ([`Case::new`]): no fault, no abort, no
/// change before a failure, the exact outcome; after a successful write,
/// the call `read_back` makes of what it left, checked the same way.
/// Returns the outcome's name for the tally.
pub fn check_call(
    mollusk: &LoggedMollusk,
    program: &Program,
    input: &Input,
    read_back: impl Fn(&[u8]) -> Input,
) -> Result<String, String> {
    let case = Case::new(program, "hostile input", input);
    let (result, outcome) = mollusk.run(&case);
    match &outcome {
        Outcome::Fault(message) => return Err(format!("VM fault: {message}")),
        Outcome::ChangedBeforeFailure(what) => {
            return Err(format!("changed before a failure: {what}"));
        }
        Outcome::OutOfMemory => return Err("aborted out of memory".into()),
        Outcome::Success | Outcome::Error(_) => {}
    }
    case.check(&result).map_err(|e| e.to_string())?;
    if let Expected::Success(after) = &case.expected
        && after != &input.data
    {
        let again = Case::new(program, "a call after a write", &read_back(after));
        let (result, outcome) = mollusk.run(&again);
        if let Outcome::Fault(message) | Outcome::ChangedBeforeFailure(message) = &outcome {
            return Err(format!("a call after a write: {message}"));
        }
        again
            .check(&result)
            .map_err(|e| format!("a call after a write: {e}"))?;
    }
    Ok(outcome.name())
}

/// Random and hostile input against another framework's token programs,
/// whose record sits behind an 8-byte account discriminator (`account`
/// puts a raw record behind it): calls from `instruction_data`, 0 to 3
/// accounts, either writable flag, the record's own owner or another, and
/// data that is a record (a quarter of them with a random tail), one
/// damaged by the hostile generator, or random bytes. Each call is checked
/// by [`check_call`], a successful write followed by `read_back`.
pub fn framework_token_programs(
    programs: &[Program],
    mollusk: &LoggedMollusk,
    cases: u32,
    account: fn(&[u8]) -> Vec<u8>,
    instruction_data: impl Strategy<Value = Vec<u8>> + Clone,
    read_back: impl Fn(&[u8]) -> Input,
) {
    let tail = prop_oneof![3 => Just(Vec::new()), 1 => prop::collection::vec(any::<u8>(), 1..24)];
    let raw = (any::<[u8; 160]>(), tail).prop_map(move |(raw, tail)| {
        let mut data = account(&raw);
        data.extend(tail);
        data
    });
    let damaged = (any::<[u8; 160]>(), mutation())
        .prop_map(move |(raw, mutation)| mutation.apply(&account(&raw)));
    let random = prop::collection::vec(any::<u8>(), 0..200);
    let data = prop_oneof![3 => raw, 3 => damaged, 1 => random];
    for program in programs {
        let strategy = (
            instruction_data.clone(),
            data.clone(),
            prop_oneof![1 => 0..=1usize, 6 => 2..=3usize],
            prop::bool::weighted(0.8),
            prop::bool::weighted(0.7),
        );
        run_cases(
            &program.label(),
            cases,
            strategy,
            |(instruction_data, data, account_count, writable, right_owner)| {
                let owner_key = match data.get(8 + 32..8 + 64) {
                    Some(owner) if right_owner => owner.try_into().expect("32 bytes"),
                    _ => [0x77; 32],
                };
                let input = Input {
                    instruction_data,
                    account_count,
                    writable,
                    data,
                    owner_key,
                };
                check_call(mollusk, program, &input, &read_back)
            },
        );
    }
}

/// Runs `cases` inputs drawn from `strategy` through `check` for one
/// program, with a fixed seed (the same cases, and so the same counts,
/// every run), and prints the tally of the outcome names `check` returns.
///
/// # Panics
/// On the first input `check` refuses, with its reason and the shrunk
/// input, named after `program`.
pub fn run_cases<S: Strategy>(
    program: &str,
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<String, String>,
) where
    S::Value: Debug,
{
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner =
        TestRunner::new_with_rng(config, TestRng::deterministic_rng(RngAlgorithm::ChaCha));
    let outcomes = RefCell::new(BTreeMap::<String, u32>::new());
    let result = runner.run(&strategy, |input| {
        let outcome = check(input).map_err(TestCaseError::fail)?;
        *outcomes.borrow_mut().entry(outcome).or_default() += 1;
        Ok(())
    });
    match result {
        Ok(()) => eprintln!(
            "{program}: {cases} hostile cases, 0 faults; outcomes {:?}",
            outcomes.borrow()
        ),
        Err(TestError::Fail(reason, input)) => {
            panic!("{program}: {reason}\nshrunk input: {input:#?}")
        }
        Err(error) => panic!("{program}: {error}"),
    }
}
