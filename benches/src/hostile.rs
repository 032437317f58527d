//! Damaged accounts, for every family's property tests: how a valid
//! encoding is damaged ([`Mutation`], [`mutation`]), and what a program did
//! with it ([`Outcome`]), told apart from the runtime's own log, since an
//! out-of-memory abort and an access violation both end the instruction
//! with `ProgramFailedToComplete`. A call that fails is also checked where
//! the program ran, before the runtime discards its writes
//! ([`InsideVm`]): an error must change nothing.

use std::{cell::RefCell, collections::BTreeMap, fmt::Debug, rc::Rc};

use mollusk_svm::{
    InvocationInspectCallback, Mollusk, result::InstructionResult, result::ProgramResult,
};
use proptest::{
    prelude::*,
    test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner},
};
use solana_account::{Account, ReadableAccount};
use solana_instruction::Instruction;
use solana_program_error::ProgramError;
use solana_program_runtime::invoke_context::InvokeContext;
use solana_pubkey::Pubkey;
use solana_svm_log_collector::LogCollector;
use solana_transaction_context::instruction_accounts::InstructionAccount;

use crate::{Case, Expected, Input, Program};

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
    /// The call failed (an error or an abort), but the program had changed
    /// an account before it did: what the runtime then discarded. Holds
    /// the failure and where the account first differs.
    ChangedBeforeFailure(String),
}

impl Outcome {
    /// The outcome's name in a test's tally.
    pub fn name(&self) -> String {
        match self {
            Self::Success => "success".into(),
            Self::Error(error) => format!("{error:?}"),
            Self::OutOfMemory => "out of memory".into(),
            Self::Fault(_) => "VM fault".into(),
            Self::ChangedBeforeFailure(_) => "changed before a failure".into(),
        }
    }
}

/// Every account's key and data as the program left them, read when the
/// invocation returns and before Mollusk rolls a failed one back: what a
/// program that calls this code and handles its error would keep. (The
/// programs' account data is mapped into the VM directly, so the
/// transaction's accounts hold the program's writes at that point.)
#[derive(Clone, Default)]
pub struct InsideVm {
    accounts: Rc<RefCell<Vec<KeyedData>>>,
}

/// An account's key and data.
type KeyedData = (Pubkey, Vec<u8>);

impl InsideVm {
    /// The accounts the last invocation left, before any rollback.
    pub fn take(&self) -> Vec<KeyedData> {
        std::mem::take(&mut self.accounts.borrow_mut())
    }
}

impl InvocationInspectCallback for InsideVm {
    fn before_invocation(
        &self,
        _: &Mollusk,
        _: &Pubkey,
        _: &[u8],
        _: &[InstructionAccount],
        _: &mut InvokeContext,
        _: bool,
    ) {
    }

    fn after_invocation(&self, _: &Mollusk, invoke_context: &InvokeContext, _: bool) {
        let context = &invoke_context.transaction_context;
        let accounts = context.accounts();
        let seen = (0..context.get_number_of_accounts())
            .filter_map(|index| {
                let key = *context.get_key_of_account_at_index(index).ok()?;
                let data = accounts.try_borrow(index).ok()?.data().to_vec();
                Some((key, data))
            })
            .collect();
        *self.accounts.borrow_mut() = seen;
    }
}

/// Runs cases with the runtime's log kept, so that an abort can be told
/// from a fault, and with every account seen inside the VM, so that a
/// failure that changed an account is caught before the rollback hides it.
/// Neither changes a CU; the benchmark itself runs without.
pub struct LoggedMollusk {
    pub mollusk: Mollusk,
    log: Rc<RefCell<LogCollector>>,
    inside: InsideVm,
}

impl LoggedMollusk {
    pub fn new(mut mollusk: Mollusk) -> Self {
        let log = LogCollector::new_ref_with_limit(None);
        mollusk.logger = Some(log.clone());
        let inside = InsideVm::default();
        mollusk.invocation_inspect_callback = Box::new(inside.clone());
        Self {
            mollusk,
            log,
            inside,
        }
    }

    /// The runtime's log of the last run (`Program data: ...` lines
    /// included).
    pub fn messages(&self) -> Vec<String> {
        self.log.borrow().messages.clone()
    }

    /// Runs `case`'s instruction (without checking it) and says what came
    /// of it.
    pub fn run(&self, case: &Case) -> (InstructionResult, Outcome) {
        self.run_instruction(&case.instruction, &case.accounts)
    }

    /// Runs `instruction` on `accounts` and says what came of it (for
    /// programs outside the families, as `make idl` generates them).
    pub fn run_instruction(
        &self,
        instruction: &Instruction,
        accounts: &[(Pubkey, Account)],
    ) -> (InstructionResult, Outcome) {
        self.log.borrow_mut().messages.clear();
        self.inside.take();
        let result = self.mollusk.process_instruction(instruction, accounts);
        let outcome = self.outcome(&result);
        if matches!(outcome, Outcome::Success | Outcome::Fault(_)) {
            return (result, outcome);
        }
        match changed(accounts, &self.inside.take()) {
            Some(change) => {
                let failure = outcome.name();
                let outcome = Outcome::ChangedBeforeFailure(format!("{failure}; {change}"));
                (result, outcome)
            }
            None => (result, outcome),
        }
    }

    fn outcome(&self, result: &InstructionResult) -> Outcome {
        match &result.program_result {
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
        }
    }
}

/// Where an account seen inside the VM differs from the case's input: its
/// index, length or first differing byte, or `None` where none does.
fn changed(accounts: &[(Pubkey, Account)], inside: &[KeyedData]) -> Option<String> {
    accounts
        .iter()
        .enumerate()
        .find_map(|(index, (key, before))| {
            let (_, after) = inside.iter().find(|(k, _)| k == key)?;
            let before = &before.data;
            if before.len() != after.len() {
                return Some(format!(
                    "account [{index}] resized from {} to {} bytes inside the VM",
                    before.len(),
                    after.len()
                ));
            }
            let at = before.iter().zip(after).position(|(b, a)| b != a)?;
            Some(format!(
                "account [{index}] byte {at} changed inside the VM: {:#04x} -> {:#04x}",
                before[at], after[at]
            ))
        })
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
