//! Runs an event program: each event's call checked by what it logged
//! (the `Program data:` line must be the discriminator and the host
//! oracle's borsh encoding of the event), each contract error on an input
//! made for it, the traced pass (the log syscall's CUs apart), and the
//! hostile generator on the instruction data.

use base64::Engine as _;
use benches::{
    frameworks::{
        anchor1::{CONSTRAINT_SIGNER, DID_NOT_DESERIALIZE_ARGS, no_handler},
        anchor2::discriminator,
    },
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
    model::{Event, Site, Ty},
    plan::events_program_id,
    render::{
        EventCodec, EventFormat, RowFormat,
        events::{Emitter, SelfCpi},
    },
    value::{self, Fill, Instances, Lengths},
};

/// One event's valid call: its data, and what must be emitted.
pub struct EventCall {
    pub event: String,
    pub data: Vec<u8>,
    /// The event's discriminator, then the host oracle's borsh encoding of
    /// it: what `emit!` logs and `emit_cpi!` passes on.
    pub emitted: Vec<u8>,
    /// Where the event's encoding starts in `data`.
    pub at: usize,
}

/// The call of `event` in `format`: the generated event (every option
/// `Some`, lists of `lengths`) encoded with borsh, after the event's
/// discriminator (the pinocchio programs, whose data is what they emit)
/// or the emitting handler's (Anchor 1.x's `emit_<event>`).
pub fn call(event: &Event, lengths: Lengths, format: EventFormat) -> EventCall {
    let ty = Ty::Struct(event.record.clone());
    let value = Instances::new(Fill::Full, lengths).value_of(&ty, &event.name);
    let mut body = Vec::new();
    value::encode(&value, &ty, &mut body);
    let selector = if matches!(format, EventFormat::Anchor1(_)) {
        let handler = crate::render::anchor1::events::handler_name(event);
        discriminator("global", &handler).to_vec()
    } else {
        event.discriminator.clone()
    };
    EventCall {
        event: event.name.clone(),
        at: selector.len(),
        data: [selector, body.clone()].concat(),
        emitted: [event.discriminator.clone(), body].concat(),
    }
}

/// The bytes of the last `Program data:` line of `messages`.
fn logged(messages: &[String]) -> Option<Vec<u8>> {
    let line = messages
        .iter()
        .rev()
        .find_map(|m| m.strip_prefix("Program data: "))?;
    let parts: Result<Vec<Vec<u8>>, _> = line
        .split(' ')
        .map(|p| base64::engine::general_purpose::STANDARD.decode(p))
        .collect();
    parts.ok().map(|parts| parts.concat())
}

/// Anchor's self-CPI event tag (`common::idl::events::EVENT_IX_TAG`).
const EVENT_IX_TAG: u64 = 0x1d9acb512ea545e4;

/// Where a program's calls go, and with which accounts: none, or for
/// `emit_cpi` the event authority and the program itself.
#[derive(Clone, Copy)]
struct Target {
    id: Pubkey,
    self_cpi: Option<SelfCpi>,
}

impl Target {
    fn instruction(&self, data: &[u8], signed: bool) -> SolanaInstruction {
        let metas = match self.self_cpi {
            Some(ids) => vec![
                AccountMeta::new_readonly(Pubkey::new_from_array(ids.event_authority), signed),
                AccountMeta::new_readonly(self.id, false),
            ],
            None => Vec::new(),
        };
        SolanaInstruction::new_with_bytes(self.id, data, metas)
    }

    fn accounts(&self) -> Vec<(Pubkey, SolanaAccount)> {
        match self.self_cpi {
            Some(ids) => vec![
                (
                    Pubkey::new_from_array(ids.event_authority),
                    SolanaAccount::default(),
                ),
                (
                    self.id,
                    mollusk_svm::program::create_program_account_loader_v3(&self.id),
                ),
            ],
            None => Vec::new(),
        }
    }
}

/// Runs every call of one event program (its `.so` is `elf`).
pub fn check(
    format: EventFormat,
    emitters: &[Emitter],
    elf: &[u8],
    lengths: Lengths,
    self_cpi: Option<SelfCpi>,
) -> Checked {
    let label = format!("events {}", RowFormat::from(format).name());
    let mut checked = Checked::default();
    let id = events_program_id(format.into(), self_cpi);
    let target = Target { id, self_cpi };
    let loaded = Loaded::new(id, elf, &label, &mut checked.failures);
    let logged_mollusk = &loaded.logged;
    let calls: Vec<EventCall> = emitters
        .iter()
        .map(|e| call(e.event, lengths, format))
        .collect();
    for (emitter, call) in emitters.iter().zip(&calls) {
        let case = format!("{label}, `{}`", call.event);
        let instruction = target.instruction(&call.data, false);
        let before = target.accounts();
        let ran = loaded.valid_call(
            &instruction,
            &before,
            (&case, "a valid event"),
            &mut checked.failures,
            |result| {
                let emitted = if self_cpi.is_some() {
                    let expected = [&EVENT_IX_TAG.to_le_bytes()[..], &call.emitted].concat();
                    result
                        .inner_instructions
                        .iter()
                        .find(|inner| inner.instruction.data == expected)
                        .map(|_| call.emitted.clone())
                } else {
                    logged(&logged_mollusk.messages())
                };
                match emitted {
                    Some(bytes) if bytes == call.emitted => {}
                    Some(bytes) => {
                        return Err(format!(
                            "logged {} bytes, not the oracle's {} ({})",
                            bytes.len(),
                            call.emitted.len(),
                            first_difference(&bytes, &call.emitted)
                        ));
                    }
                    None => return Err("nothing logged".into()),
                }
                // What the replay must see: the log line's bytes, or the
                // self-CPI's whole data.
                let emitted = match self_cpi {
                    Some(_) => (
                        "self_cpi",
                        [&EVENT_IX_TAG.to_le_bytes()[..], &call.emitted].concat(),
                    ),
                    None => ("log", call.emitted.clone()),
                };
                Ok(Called {
                    emitted: Some(emitted),
                    ..Called::new(&instruction, &before, None)
                })
            },
        );
        let Some((measured, called)) = ran else {
            continue;
        };
        if emitter.measured {
            checked.rows.push(Row {
                site: Site::Event,
                name: call.event.clone(),
                format: format.into(),
                operation: "emit",
                instance: "full",
                account_bytes: call.data.len(),
                outcome: measured,
                called,
            });
        }
    }
    check_errors(
        logged_mollusk,
        target,
        format,
        emitters,
        &calls,
        &label,
        &mut checked,
    );
    check_hostile(
        logged_mollusk,
        target,
        format,
        emitters,
        &calls,
        &label,
        &mut checked,
    );
    checked
}

/// Each contract error on an input made for it: the pinocchio programs'
/// `InvalidInstructionData`, or Anchor 1.x's own codes (no handler, the
/// event not decoded, the event authority's signature missing).
fn check_errors(
    logged: &LoggedMollusk,
    target: Target,
    format: EventFormat,
    emitters: &[Emitter],
    calls: &[EventCall],
    label: &str,
    checked: &mut Checked,
) {
    let Some(first) = calls.first() else { return };
    let known: Vec<&[u8]> = calls.iter().map(|c| &c.data[..8]).collect();
    let mut unknown = first.data.clone();
    while known.contains(&&unknown[..8]) {
        unknown[0] = unknown[0].wrapping_add(1);
    }
    let anchor = matches!(format, EventFormat::Anchor1(_));
    let invalid = ProgramError::InvalidInstructionData;
    let no_handler = |data: &[u8]| {
        if anchor {
            no_handler(data)
        } else {
            invalid.clone()
        }
    };
    let not_decoded = if anchor {
        DID_NOT_DESERIALIZE_ARGS
    } else {
        invalid.clone()
    };
    let short = first.data[..7].to_vec();
    let mut cases = vec![
        (
            "data shorter than the discriminator".to_string(),
            no_handler(&short),
            short,
        ),
        (
            "unknown discriminator".to_string(),
            no_handler(&unknown),
            unknown,
        ),
    ];
    if format != EventFormat::Pinocchio(EventCodec::Floor) {
        for (emitter, call) in emitters.iter().zip(calls) {
            let event = emitter.event;
            if !emitter.measured || event.record.fields.is_empty() {
                continue;
            }
            cases.push((
                format!("`{}` cut short", event.name),
                not_decoded.clone(),
                call.data[..call.data.len() - 1].to_vec(),
            ));
            let ty = Ty::Struct(event.record.clone());
            let value = Instances::new(Fill::Full, Lengths::default()).value_of(&ty, &event.name);
            if let Some((offset, byte)) = value::first_invalid(&value, &ty) {
                let mut data = call.data.clone();
                data[call.at + offset] = byte;
                cases.push((
                    format!("`{}` with an invalid byte at {offset}", event.name),
                    not_decoded.clone(),
                    data,
                ));
            }
        }
    }
    let mut cases: Vec<(String, Vec<u8>, bool, ProgramError)> = cases
        .into_iter()
        .map(|(name, error, data)| (name, data, false, error))
        .collect();
    if target.self_cpi.is_some() {
        // The self-CPI's own instruction, sent from outside unsigned.
        cases.push((
            "the event instruction without the authority's signature".into(),
            [&EVENT_IX_TAG.to_le_bytes()[..], &first.emitted].concat(),
            false,
            if anchor {
                CONSTRAINT_SIGNER
            } else {
                ProgramError::MissingRequiredSignature
            },
        ));
    }
    for (name, data, signed, error) in cases {
        expect_error(
            logged,
            &target.instruction(&data, signed),
            &target.accounts(),
            &error,
            &format!("{label}, {name}"),
            &mut checked.failures,
        );
    }
}

/// The hostile generator on every event's data in turn: never a VM fault;
/// for Anchor 1.x, an abort only on an event the oracle cannot decode
/// (borsh preallocates what a corrupt length claims, and the std build
/// aborts with no message where the heap cannot hold it).
fn check_hostile(
    logged: &LoggedMollusk,
    target: Target,
    format: EventFormat,
    emitters: &[Emitter],
    calls: &[EventCall],
    label: &str,
    checked: &mut Checked,
) {
    let inputs: Vec<(&str, &[u8])> = calls
        .iter()
        .map(|c| (c.event.as_str(), c.data.as_slice()))
        .collect();
    let anchor = matches!(format, EventFormat::Anchor1(_));
    hostile_inputs(&inputs, label, checked, |_, damaged| {
        let (_, outcome) =
            logged.run_instruction(&target.instruction(damaged, false), &target.accounts());
        match outcome {
            Outcome::Fault(message)
                if anchor
                    && message.ends_with("SBF program panicked")
                    && !oracle_decodes(emitters, calls, damaged) =>
            {
                Ok("abort on an invalid event (borsh's preallocation)".into())
            }
            Outcome::OutOfMemory if anchor => Ok("out of memory (documented for borsh)".into()),
            Outcome::Fault(message) => Err(format!("VM fault: {message}")),
            other => Ok(other.name()),
        }
    });
}

/// Whether `data` selects one of `calls`' handlers (its first 8 bytes)
/// whose event the host oracle decodes from the bytes after them.
fn oracle_decodes(emitters: &[Emitter], calls: &[EventCall], data: &[u8]) -> bool {
    emitters.iter().zip(calls).any(|(e, c)| {
        data.starts_with(&c.data[..c.at])
            && value::decode(&Ty::Struct(e.event.record.clone()), data, c.at).is_ok()
    })
}
