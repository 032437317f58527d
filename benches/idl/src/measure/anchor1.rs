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
        CONSTRAINT_MUT, DID_NOT_DESERIALIZE, DID_NOT_DESERIALIZE_ARGS, DISCRIMINATOR_MISMATCH,
        DISCRIMINATOR_NOT_FOUND, NOT_ENOUGH_KEYS, OWNED_BY_WRONG_PROGRAM, no_handler,
    },
    anchor2::discriminator,
};
use benches::vm::Outcome as RunOutcome;
use solana_program_error::ProgramError;

use super::{
    Called, Checked, ErrorCase, Instance, Loaded, Row, accounts, cannot_run, expect_error,
    first_difference, hostile_inputs, instruction, program_id,
};
use crate::{
    generate::Planned,
    model::{Account, Site},
    render::Format,
    value::{self, Value},
};

/// One handler's call: its name, its instruction data (the handler's
/// discriminator and its argument) and the record it leaves.
struct Call {
    operation: &'static str,
    data: Vec<u8>,
    after: Value,
}

/// Anchor's instruction data for `handler` with `argument` (borsh's bytes
/// of a `uN` or a `[u8; N]` are the value's bytes).
fn handler_data(handler: &str, argument: &[u8]) -> Vec<u8> {
    [&discriminator("global", handler)[..], argument].concat()
}

/// `full`, `read` and (where the record has an integer) `update` on
/// `record`, as the pinocchio programs' operations: the same fields, the
/// same records left.
fn calls(planned: &Planned, account: &Account, record: &Value) -> Vec<Call> {
    let read_ty = value::ty_at(&account.record, &planned.read);
    let read = value::scalar_bytes(value::value_at(record, &planned.read), read_ty);
    let updated = planned.update.as_ref().map(|path| {
        let ty = value::ty_at(&account.record, path);
        let new = value::updated(value::value_at(record, path), ty);
        (
            value::scalar_bytes(&new, ty),
            value::with_path(record, path, new),
        )
    });
    let mut calls = vec![
        Call {
            operation: "full",
            data: handler_data("full", &[]),
            after: updated
                .as_ref()
                .map_or(record.clone(), |(_, after)| after.clone()),
        },
        Call {
            operation: "read",
            data: handler_data("read", &read),
            after: record.clone(),
        },
    ];
    if let Some((bytes, after)) = updated {
        calls.push(Call {
            operation: "update",
            data: handler_data("update", &bytes),
            after,
        });
    }
    calls
}

/// Runs every case of the Anchor 1.x program `planned` (its `.so` is
/// `elf`).
pub fn check(planned: &Planned, account: &Account, elf: &[u8], instances: &[Instance]) -> Checked {
    let label = format!("{} {}", account.name, planned.format.name());
    let mut checked = Checked::default();
    let id = program_id(&planned.name);
    let loaded = Loaded::new(id, elf, &label, &mut checked.failures);
    let logged = &loaded.logged;
    for instance in instances {
        let data = instance.data(account, &instance.record);
        for call in calls(planned, account, &instance.record) {
            let case = format!(
                "{label}, {} on the `{}` instance",
                call.operation, instance.name
            );
            let expected = instance.data(account, &call.after);
            let instruction = instruction(id, &call.data, true, 2);
            let before = accounts(id, &data, 2);
            let (result, outcome) = logged.run_instruction(&instruction, &before);
            let mut called = None;
            let measured = match outcome {
                RunOutcome::Success => {
                    let after = &result.resulting_accounts[0].1.data;
                    if *after != expected {
                        checked
                            .failures
                            .push(format!("{case}: {}", first_difference(after, &expected)));
                        continue;
                    }
                    called = Some(Called::new(&instruction, &before, Some(&expected)));
                    loaded.ran(
                        &instruction,
                        &before,
                        result.compute_units_consumed,
                        &case,
                        &mut checked.failures,
                    )
                }
                other => match cannot_run(other) {
                    Some(measured) => measured,
                    None => {
                        checked.failures.push(format!(
                            "{case}: a valid record refused ({:?})",
                            result.program_result
                        ));
                        continue;
                    }
                },
            };
            checked.rows.push(Row {
                site: Site::Account,
                name: account.name.clone(),
                format: planned.format,
                operation: call.operation,
                instance: instance.name,
                account_bytes: data.len(),
                outcome: measured,
                called,
            });
        }
    }
    if let Some(first) = instances.first() {
        check_errors(&loaded, planned, account, first, &label, &mut checked);
        check_hostile(&loaded, planned, account, first, &label, &mut checked);
    }
    checked
}

/// Each error of Anchor 1.x's contract on an input made for it, with
/// nothing changed inside the VM.
fn check_errors(
    loaded: &Loaded,
    planned: &Planned,
    account: &Account,
    instance: &Instance,
    label: &str,
    checked: &mut Checked,
) {
    let id = program_id(&planned.name);
    let record = &instance.record;
    let data = instance.data(account, record);
    let full = handler_data("full", &[]);
    let read_ty = value::ty_at(&account.record, &planned.read);
    let mut other = value::scalar_bytes(value::value_at(record, &planned.read), read_ty);
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
        case("record cut short", &full, true, 2, cut, DID_NOT_DESERIALIZE),
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
        expect_error(
            &loaded.logged,
            &instruction(id, &case.instruction, case.writable, case.count),
            &before,
            &case.error,
            &format!("{label}, {}", case.name),
            &mut checked.failures,
        );
    }
}

/// The hostile generator on the account's data with each handler: never a
/// VM fault, never a change before a failure; the heap exhausted only for
/// `Account<T>` (borsh preallocates what a corrupt length claims).
fn check_hostile(
    loaded: &Loaded,
    planned: &Planned,
    account: &Account,
    instance: &Instance,
    label: &str,
    checked: &mut Checked,
) {
    let id = program_id(&planned.name);
    let data = instance.data(account, &instance.record);
    let calls = calls(planned, account, &instance.record);
    let inputs: Vec<(&str, &[u8])> = calls
        .iter()
        .map(|c| (c.operation, data.as_slice()))
        .collect();
    hostile_inputs(&inputs, label, checked, |which, damaged| {
        let instruction = instruction(id, &calls[which].data, true, 2);
        let (result, outcome) = loaded
            .logged
            .run_instruction(&instruction, &accounts(id, damaged, 2));
        match outcome {
            // borsh preallocates what a corrupt length prefix claims, and
            // the std build aborts with no message where the heap cannot
            // hold it (benches::frameworks::anchor1::ABORTS): an abort is
            // Anchor's answer to a record the oracle cannot decode, never
            // to one it can.
            RunOutcome::Fault(message)
                if planned.format == Format::Anchor1Account
                    && message.ends_with("SBF program panicked")
                    && value::decode_account(account, damaged).is_err() =>
            {
                Ok("abort on an invalid record (borsh's preallocation)".into())
            }
            RunOutcome::Fault(message) => Err(format!("VM fault: {message}")),
            RunOutcome::ChangedBeforeFailure(what) => {
                Err(format!("changed before a failure: {what}"))
            }
            RunOutcome::OutOfMemory if planned.format == Format::Anchor1Account => {
                Ok("out of memory (documented for borsh)".into())
            }
            RunOutcome::Success if result.resulting_accounts[0].1.data.len() != damaged.len() => {
                Err("the account's length changed".into())
            }
            other => Ok(other.name()),
        }
    });
}
