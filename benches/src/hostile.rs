//! Damaged accounts, for every family's property tests: how a valid
//! encoding is damaged ([`Mutation`], [`mutation`]), and what a program did
//! with it ([`Outcome`]), told apart from the runtime's own log, since an
//! out-of-memory abort and an access violation both end the instruction
//! with `ProgramFailedToComplete`.

use std::{cell::RefCell, collections::BTreeMap, fmt::Debug, rc::Rc};

use mollusk_svm::{Mollusk, result::InstructionResult, result::ProgramResult};
use proptest::{
    prelude::*,
    test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner},
};
use solana_program_error::ProgramError;
use solana_svm_log_collector::LogCollector;

use crate::Case;

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

/// The hostile generator every family's property test draws from: a share
/// of undamaged encodings, then bit flips, cuts, bumped counts, bytes set
/// to `0x00`/`0xff`, length prefixes and varints claiming lengths up to and
/// past the heap, overlong varints, appended and random bytes.
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
        1 => (position(), claimed_length()).prop_map(|(at, value)| Mutation::SetVarint { at, value }),
        2 => (position(), any::<u8>()).prop_map(|(at, extra)| Mutation::Overlong { at, extra }),
        1 => prop::collection::vec(any::<u8>(), 1..40).prop_map(Mutation::Extend),
        1 => prop::collection::vec(any::<u8>(), 0..400).prop_map(Mutation::Random),
    ]
}

/// What a program did with an input, from the result and the runtime's log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// A program error (the contract's, or not).
    Error(ProgramError),
    /// The allocator refused an allocation and the program aborted in
    /// `handle_alloc_error` (a panic in `alloc/src/alloc.rs`).
    OutOfMemory,
    /// Anything else that stopped the VM: an access violation, another
    /// panic, an exceeded budget. Holds the runtime's message.
    Fault(String),
}

impl Outcome {
    /// The outcome's name in a test's tally.
    pub fn name(&self) -> String {
        match self {
            Self::Success => "success".into(),
            Self::Error(error) => format!("{error:?}"),
            Self::OutOfMemory => "out of memory".into(),
            Self::Fault(_) => "VM fault".into(),
        }
    }
}

/// Runs cases with the runtime's log kept, so that an abort can be told
/// from a fault. Logging changes no CU; the benchmark itself runs without.
pub struct LoggedMollusk {
    pub mollusk: Mollusk,
    log: Rc<RefCell<LogCollector>>,
}

impl LoggedMollusk {
    pub fn new(mut mollusk: Mollusk) -> Self {
        let log = LogCollector::new_ref_with_limit(None);
        mollusk.logger = Some(log.clone());
        Self { mollusk, log }
    }

    /// Runs `case`'s instruction (without checking it) and says what came
    /// of it.
    pub fn run(&self, case: &Case) -> (InstructionResult, Outcome) {
        self.log.borrow_mut().messages.clear();
        let result = self
            .mollusk
            .process_instruction(&case.instruction, &case.accounts);
        let outcome = match &result.program_result {
            ProgramResult::Success => Outcome::Success,
            ProgramResult::Failure(error) => Outcome::Error(error.clone()),
            ProgramResult::UnknownError(error) => {
                let log = self.log.borrow();
                let failed = log
                    .messages
                    .iter()
                    .rev()
                    .find(|line| line.contains(" failed: "))
                    .cloned()
                    .unwrap_or_else(|| format!("{error:?}"));
                if failed.contains("Panicked in") && failed.contains("alloc/src/alloc.rs") {
                    Outcome::OutOfMemory
                } else {
                    Outcome::Fault(failed)
                }
            }
        };
        (result, outcome)
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
