//! The Anchor 1.x programs of an account type (`render::anchor1`), run as
//! the generated pinocchio programs are: the same instances and operations,
//! each result held against the host oracle's bytes, every error of
//! Anchor's contract on an input made for it, and the hostile generator on
//! the account's data. The contract is Anchor 1.x's own (the
//! `ErrorCode`s of `benches::frameworks::anchor1`, which the hand-written
//! programs answer to): the handlers are found by their `global:`
//! discriminators, the account by its owner and the IDL's discriminator.

use benches::frameworks::{
    anchor1::{
        ABORTS, CONSTRAINT_MUT, DID_NOT_DESERIALIZE, DID_NOT_DESERIALIZE_ARGS,
        DISCRIMINATOR_MISMATCH, DISCRIMINATOR_NOT_FOUND, NOT_ENOUGH_KEYS, OWNED_BY_WRONG_PROGRAM,
        no_handler,
    },
    anchor2::discriminator,
};
use benches::vm::Outcome as RunOutcome;
use solana_program_error::ProgramError;

use super::{
    Checked, ErrorCase, Instance, Instruction, LoggedMollusk, Pubkey, SolanaAccount, Subject,
    accounts, calls, instruction,
    loaded::{expect_error, hostile_inputs},
};
use crate::{
    plan::Planned,
    render::{RowFormat, anchor1::Release},
    value,
};

/// Anchor's instruction data for `handler` with `argument` (borsh's bytes
/// of a `uN` or a `[u8; N]` are the value's bytes).
fn handler_data(handler: &str, argument: &[u8]) -> Vec<u8> {
    [&discriminator("global", handler)[..], argument].concat()
}

/// How an Anchor path answers a record it cannot use, in one release:
/// the error of a record cut short, and the abort it may make on a record
/// the oracle cannot decode (named for the hostile tally).
struct BadRecord {
    cut_short: ProgramError,
    abort: Option<&'static str>,
    /// borsh's preallocation may exhaust the heap.
    out_of_memory: bool,
}

impl BadRecord {
    /// `Account<T>` maps borsh's error to its own code and may abort on
    /// a corrupt length (borsh preallocates what it claims; this route's
    /// `std` aborts without a message, benches::frameworks::anchor1::ABORTS);
    /// `LazyAccount<T>` passes borsh's I/O error on (`?`) and also panics
    /// where a length runs past the data (its documented `# Panics`);
    /// `AccountLoader<T>` before 1.2 slices the data without checking its
    /// length (1.2's `check_size` answers `AccountDidNotDeserialize`).
    fn of(format: RowFormat, release: &Release) -> Self {
        let unchecked_loader = !crate::render::anchor1::at_least(release.version, (1, 2));
        match format {
            RowFormat::Anchor1Account => Self {
                cut_short: DID_NOT_DESERIALIZE,
                abort: Some("abort on an invalid record (borsh's preallocation)"),
                out_of_memory: true,
            },
            RowFormat::Anchor1LazyAccount => Self {
                cut_short: ProgramError::BorshIoError,
                abort: Some(
                    "abort on an invalid record (a length past the data, or borsh's preallocation)",
                ),
                out_of_memory: true,
            },
            _ if unchecked_loader => Self {
                cut_short: ABORTS,
                abort: Some(
                    "abort on a record shorter than its layout (the loader slices unchecked)",
                ),
                out_of_memory: false,
            },
            _ => Self {
                cut_short: DID_NOT_DESERIALIZE,
                abort: None,
                out_of_memory: false,
            },
        }
    }
}

/// A run of `instruction` that must abort (a panic in Anchor's own code,
/// where a release has no error for the input), with nothing changed.
fn expect_abort(
    logged: &LoggedMollusk,
    instruction: &Instruction,
    accounts: &[(Pubkey, SolanaAccount)],
    what: &str,
    failures: &mut Vec<String>,
) {
    let (result, outcome) = logged.run_instruction(instruction, accounts);
    if !matches!(&outcome, RunOutcome::Fault(message) if message.ends_with("SBF program panicked"))
    {
        failures.push(format!(
            "{what}: {:?} ({outcome:?}), the contract says an abort (this release's loader slices the data unchecked)",
            result.program_result
        ));
    }
}

/// The same operations as Anchor handlers of the same names.
pub(super) fn handlers(_: &Planned, operation: &'static str, argument: &[u8]) -> Vec<u8> {
    handler_data(operation, argument)
}

/// Each error of Anchor 1.x's contract on an input made for it, with
/// nothing changed inside the VM.
pub(super) fn check_errors(subject: &Subject, instance: &Instance, checked: &mut Checked) {
    let Subject {
        logged,
        id,
        planned,
        account,
        label,
        ..
    } = *subject;
    let record = &instance.record;
    let data = instance.data(account, record);
    let full = handler_data("full", &[]);
    let mut other = value::scalar_bytes(
        value::value_at(record, &planned.read.indexes),
        &planned.read.ty.ty(),
    );
    other[0] ^= 0x01;
    let unknown = handler_data("not_a_handler", &[]);
    let discriminator_len = account.discriminator.len();
    let mut wrong = data.clone();
    wrong[0] ^= 0xff;
    let case = |name, instruction: &[u8], writable, count, data: &[u8], error| ErrorCase {
        name,
        instruction: instruction.to_vec(),
        writable,
        count,
        data: data.to_vec(),
        error,
    };
    let short = &full[..7];
    let cut_short = BadRecord::of(planned.format.into(), subject.release).cut_short;
    let cut = &data[..data.len() - instance.tail.len() - 1];
    let cases = [
        case("no accounts", &full, true, 0, &data, NOT_ENOUGH_KEYS),
        case(
            "data shorter than a handler's discriminator",
            short,
            true,
            2,
            &data,
            no_handler(short),
        ),
        case(
            "no handler's discriminator",
            &unknown,
            true,
            2,
            &data,
            no_handler(&unknown),
        ),
        case("read-only account", &full, false, 2, &data, CONSTRAINT_MUT),
        case(
            "read of another value",
            &handler_data("read", &other),
            true,
            2,
            &data,
            ProgramError::InvalidArgument,
        ),
        case(
            "read value too short",
            &handler_data("read", &other[1..]),
            true,
            2,
            &data,
            DID_NOT_DESERIALIZE_ARGS,
        ),
        case(
            "another discriminator",
            &full,
            true,
            2,
            &wrong,
            DISCRIMINATOR_MISMATCH,
        ),
        case(
            "data shorter than the discriminator",
            &full,
            true,
            2,
            &data[..discriminator_len - 1],
            DISCRIMINATOR_NOT_FOUND,
        ),
        case("record cut short", &full, true, 2, cut, cut_short),
        // The same bytes, owned by another program.
        case(
            "another program's account",
            &full,
            true,
            2,
            &data,
            OWNED_BY_WRONG_PROGRAM,
        ),
    ];
    for case in cases {
        let mut before = accounts(id, &case.data, case.count);
        if case.error == OWNED_BY_WRONG_PROGRAM
            && let Some((_, account)) = before.first_mut()
        {
            account.owner = solana_pubkey::Pubkey::new_from_array([0x0E; 32]);
        }
        let what = format!("{label}, {}", case.name);
        let instruction = instruction(id, &case.instruction, case.writable, case.count);
        if case.error == ABORTS {
            expect_abort(logged, &instruction, &before, &what, &mut checked.failures);
        } else {
            expect_error(
                logged,
                &instruction,
                &before,
                &case.error,
                &what,
                &mut checked.failures,
            );
        }
    }
}

/// The hostile generator on the account's data with each handler: never a
/// VM fault, never a change before a failure; an abort or the heap
/// exhausted only where the path makes one ([`BadRecord`]), and an abort
/// only on a record the oracle cannot decode.
pub(super) fn check_hostile(subject: &Subject, instance: &Instance, checked: &mut Checked) {
    let Subject {
        logged,
        id,
        planned,
        account,
        label,
        ..
    } = *subject;
    let data = instance.data(account, &instance.record);
    let calls = calls(planned, &instance.record, handlers);
    let bad = BadRecord::of(planned.format.into(), subject.release);
    let inputs: Vec<(&str, &[u8])> = calls
        .iter()
        .map(|c| (c.operation, data.as_slice()))
        .collect();
    hostile_inputs(&inputs, label, checked, |which, damaged| {
        let instruction = instruction(id, &calls[which].data, true, 2);
        let (result, outcome) = logged.run_instruction(&instruction, &accounts(id, damaged, 2));
        match outcome {
            // An abort is Anchor's answer to a record the oracle cannot
            // decode, where the path makes one, never to one it can.
            RunOutcome::Fault(message)
                if message.ends_with("SBF program panicked")
                    && value::decode_account(account, damaged).is_err()
                    && let Some(abort) = bad.abort =>
            {
                Ok(abort.into())
            }
            RunOutcome::Fault(message) => Err(format!("VM fault: {message}")),
            RunOutcome::ChangedBeforeFailure(what) => {
                Err(format!("changed before a failure: {what}"))
            }
            RunOutcome::OutOfMemory if bad.out_of_memory => {
                Ok("out of memory (documented for borsh)".into())
            }
            RunOutcome::Success if result.resulting_accounts[0].1.data.len() != damaged.len() => {
                Err("the account's length changed".into())
            }
            other => Ok(other.name()),
        }
    });
}
