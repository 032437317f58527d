//! Runs an argument program as the accounts' programs are run: each
//! instruction's call checked against the host oracle (account [0] holds
//! the stored argument's bytes, the rest of it untouched), each contract
//! error on an input made for it with nothing changed inside the VM, the
//! traced pass, and the hostile generator on the instruction data.

use benches::{
    frameworks::anchor1::{CONSTRAINT_MUT, DID_NOT_DESERIALIZE_ARGS, NOT_ENOUGH_KEYS, no_handler},
    vm::{LoggedMollusk, Outcome},
};
use solana_account::Account as SolanaAccount;
use solana_instruction::{AccountMeta, Instruction as SolanaInstruction};
use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

use super::{
    Called, Checked, Row,
    loaded::{Loaded, expect_error, first_difference, hostile_inputs},
};
use crate::{
    model::{Instruction, Site, Ty},
    plan::arguments_program_id,
    render::{ArgumentCodec, ArgumentFormat, RowFormat, arguments::Handler},
    value::{self, Fill, Instances, Lengths, Value},
};

const OUT_KEY: Pubkey = Pubkey::new_from_array([0x0A; 32]);
/// Account [0]'s bytes before a call: every argument stored fits, and a
/// byte the handler should not write shows.
const OUT_LEN: usize = 40;
const BACKGROUND: u8 = 0xEE;
const LAMPORTS: u64 = 1_000_000_000;

/// One instruction's valid call: its data and what account [0] holds after.
pub struct InstructionCall {
    pub instruction: String,
    pub data: Vec<u8>,
    pub args_len: usize,
    pub expected: Vec<u8>,
}

/// The instance every instruction's call carries: the generated `full`
/// arguments (every option `Some`, lists of `lengths`).
pub fn arguments(instruction: &Instruction, lengths: Lengths) -> Value {
    Instances::new(Fill::Full, lengths)
        .value_of(&Ty::Struct(instruction.args.clone()), &instruction.name)
}

/// The call of `handler` in `format`: the discriminator, then borsh's
/// encoding of the arguments; account [0] after it holds the stored
/// argument (the floor: the arguments' first bytes as they came).
pub fn call(handler: &Handler, format: ArgumentFormat, lengths: Lengths) -> InstructionCall {
    let ix = handler.instruction;
    let args = arguments(ix, lengths);
    let mut encoded = Vec::new();
    value::encode(&args, &Ty::Struct(ix.args.clone()), &mut encoded);
    let stored = match (&handler.store, ix.args.fields.is_empty()) {
        (Some(path), false) => match format {
            ArgumentFormat::Pinocchio(ArgumentCodec::Floor) => encoded[..path.ty.width()].to_vec(),
            _ => value::scalar_bytes(value::value_at(&args, &path.indexes), &path.ty.ty()),
        },
        _ => Vec::new(),
    };
    let mut expected = vec![BACKGROUND; OUT_LEN];
    expected[..stored.len()].copy_from_slice(&stored);
    InstructionCall {
        instruction: ix.name.clone(),
        args_len: encoded.len(),
        data: [ix.discriminator.clone(), encoded].concat(),
        expected,
    }
}

fn solana_instruction(
    id: Pubkey,
    data: &[u8],
    writable: bool,
    accounts: usize,
) -> SolanaInstruction {
    let metas = [AccountMeta {
        pubkey: OUT_KEY,
        is_signer: false,
        is_writable: writable,
    }];
    SolanaInstruction::new_with_bytes(id, data, metas.into_iter().take(accounts).collect())
}

fn accounts(id: Pubkey, count: usize) -> Vec<(Pubkey, SolanaAccount)> {
    let out = SolanaAccount {
        lamports: LAMPORTS,
        data: vec![BACKGROUND; OUT_LEN],
        owner: id,
        ..SolanaAccount::default()
    };
    [(OUT_KEY, out)].into_iter().take(count).collect()
}

/// Runs every call of one argument program (its `.so` is `elf`).
pub fn check(
    format: ArgumentFormat,
    handlers: &[Handler],
    elf: &[u8],
    lengths: Lengths,
) -> Checked {
    let label = format!("instructions {}", RowFormat::from(format).name());
    let mut checked = Checked::default();
    let id = arguments_program_id(format.into());
    let loaded = Loaded::new(id, elf, &label, &mut checked.failures);
    let logged = &loaded.logged;
    let calls: Vec<InstructionCall> = handlers.iter().map(|h| call(h, format, lengths)).collect();
    for (handler, call) in handlers.iter().zip(&calls) {
        if !handler.measured {
            continue;
        }
        let case = format!("{label}, `{}`", call.instruction);
        let instruction = solana_instruction(id, &call.data, true, 1);
        let before = accounts(id, 1);
        let ran = loaded.valid_call(
            &instruction,
            &before,
            (&case, "valid arguments"),
            &mut checked.failures,
            |result| {
                let after = &result.resulting_accounts[0].1.data;
                if *after != call.expected {
                    return Err(first_difference(after, &call.expected));
                }
                Ok(Called::new(&instruction, &before, Some(&call.expected)))
            },
        );
        let Some((measured, called)) = ran else {
            continue;
        };
        checked.rows.push(Row {
            site: Site::Instruction,
            name: call.instruction.clone(),
            format: format.into(),
            operation: "args",
            instance: "full",
            account_bytes: call.data.len(),
            outcome: measured,
            called,
        });
    }
    check_errors(logged, id, format, handlers, &calls, &label, &mut checked);
    check_hostile(logged, id, format, handlers, &calls, &label, &mut checked);
    checked
}

/// Each contract error on an input made for it, with account [0]
/// unchanged inside the VM.
fn check_errors(
    logged: &LoggedMollusk,
    id: Pubkey,
    format: ArgumentFormat,
    handlers: &[Handler],
    calls: &[InstructionCall],
    label: &str,
    checked: &mut Checked,
) {
    let Some(first) = calls.first() else { return };
    let discriminator_len = handlers[0].instruction.discriminator.len();
    let known: Vec<&[u8]> = handlers
        .iter()
        .map(|h| h.instruction.discriminator.as_slice())
        .collect();
    let mut unknown = first.data.clone();
    while known.contains(&&unknown[..discriminator_len]) {
        unknown[0] = unknown[0].wrapping_add(1);
    }
    // Anchor 1.x answers with its own codes: its dispatch finds no handler
    // (or the data leads with its event tag), its `mut` check, its decode
    // of the arguments.
    let anchor = format == ArgumentFormat::Anchor1;
    let short = first.data[..discriminator_len - 1].to_vec();
    let (keys, short_error, immutable, unknown_error, invalid) = if anchor {
        (
            NOT_ENOUGH_KEYS,
            no_handler(&short),
            CONSTRAINT_MUT,
            no_handler(&unknown),
            DID_NOT_DESERIALIZE_ARGS,
        )
    } else {
        let invalid = ProgramError::InvalidInstructionData;
        (
            ProgramError::NotEnoughAccountKeys,
            invalid.clone(),
            ProgramError::Immutable,
            invalid.clone(),
            invalid,
        )
    };
    let mut cases: Vec<(String, Vec<u8>, bool, usize, ProgramError)> = vec![
        ("no account".into(), first.data.clone(), true, 0, keys),
        (
            "data shorter than the discriminator".into(),
            short,
            true,
            1,
            short_error,
        ),
        (
            "read-only account".into(),
            first.data.clone(),
            false,
            1,
            immutable,
        ),
        (
            "unknown discriminator".into(),
            unknown,
            true,
            1,
            unknown_error,
        ),
    ];
    for (handler, call) in handlers.iter().zip(calls) {
        // An Anchor handler the format cannot decode takes nothing.
        if anchor && !handler.measured {
            continue;
        }
        let ix = handler.instruction;
        // Where this instruction's arguments start: after all its tags (an
        // extension's instruction has two).
        let at = ix.discriminator.len();
        // Short arguments: one byte less than the format reads (the floor
        // reads only the stored argument's bytes).
        let floor = format == ArgumentFormat::Pinocchio(ArgumentCodec::Floor);
        let needed = match format {
            ArgumentFormat::Pinocchio(ArgumentCodec::Floor) => {
                handler.store.as_ref().map_or(0, |path| path.ty.width())
            }
            _ => call.args_len,
        };
        let shorter_is_valid = !floor && ix.args.ends_in_remainder();
        if needed > 0 && !ix.args.fields.is_empty() && !shorter_is_valid {
            cases.push((
                format!("`{}`'s arguments cut short", ix.name),
                call.data[..at + needed - 1].to_vec(),
                true,
                1,
                invalid.clone(),
            ));
        }
        if !floor && !ix.args.fields.is_empty() {
            let args = arguments(ix, Lengths::default());
            if let Some((offset, byte)) = value::first_invalid(&args, &Ty::Struct(ix.args.clone()))
            {
                let mut data = call.data.clone();
                data[at + offset] = byte;
                cases.push((
                    format!("`{}` with an invalid byte at {offset}", ix.name),
                    data,
                    true,
                    1,
                    invalid.clone(),
                ));
            }
        }
    }
    for (name, data, writable, count, error) in cases {
        expect_error(
            logged,
            &solana_instruction(id, &data, writable, count),
            &accounts(id, count),
            &error,
            &format!("{label}, {name}"),
            &mut checked.failures,
        );
    }
}

/// The hostile generator on every instruction's data in turn: never a VM
/// fault, never a change before a failure; an out-of-memory abort only for
/// borsh and Anchor 1.x (borsh preallocates what a corrupt length claims;
/// the std build aborts with no message where the heap cannot hold it, so
/// there only on arguments the oracle cannot decode).
fn check_hostile(
    logged: &LoggedMollusk,
    id: Pubkey,
    format: ArgumentFormat,
    handlers: &[Handler],
    calls: &[InstructionCall],
    label: &str,
    checked: &mut Checked,
) {
    let inputs: Vec<(&str, &[u8])> = calls
        .iter()
        .map(|c| (c.instruction.as_str(), c.data.as_slice()))
        .collect();
    hostile_inputs(&inputs, label, checked, |_, damaged| {
        let instruction = solana_instruction(id, damaged, true, 1);
        let (result, outcome) = logged.run_instruction(&instruction, &accounts(id, 1));
        let anchor = format == ArgumentFormat::Anchor1;
        match outcome {
            Outcome::Fault(message)
                if anchor
                    && message.ends_with("SBF program panicked")
                    && !oracle_decodes(handlers, damaged) =>
            {
                Ok("abort on invalid arguments (borsh's preallocation)".into())
            }
            Outcome::Fault(message) => Err(format!("VM fault: {message}")),
            Outcome::ChangedBeforeFailure(what) => Err(format!("changed before a failure: {what}")),
            Outcome::OutOfMemory
                if format == ArgumentFormat::Pinocchio(ArgumentCodec::Borsh) || anchor =>
            {
                Ok("out of memory (documented for borsh)".into())
            }
            Outcome::Success if result.resulting_accounts[0].1.data.len() != OUT_LEN => {
                Err("the account's length changed".into())
            }
            other => Ok(other.name()),
        }
    });
}

/// Whether `data` selects a handler of `handlers` whose arguments the host
/// oracle decodes from the bytes after its discriminator.
fn oracle_decodes(handlers: &[Handler], data: &[u8]) -> bool {
    handlers.iter().any(|h| {
        let ix = h.instruction;
        data.starts_with(&ix.discriminator)
            && value::decode(&Ty::Struct(ix.args.clone()), data, ix.discriminator.len()).is_ok()
    })
}
