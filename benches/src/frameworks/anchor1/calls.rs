//! A family's record as Anchor 1.x instruction arguments and as its event
//! (`programs/anchor1/<family>/args_and_events`). Each handler takes the
//! record as its one argument and stores one field of it at the start of
//! account [0] (the token record's `close_authority`, the metadata
//! record's `seller_fee_basis_points`); `emit_event` then logs the record
//! (`emit!`), `emit_cpi` passes it to the program itself (`emit_cpi!`). Anchor 1.x's
//! checks, in its order (anchor-syn 1.2.2's `dispatch` and handlers; each
//! on an input made for it in benches/tests/anchor1.rs):
//! - a handler's discriminator, else data led by Anchor's event tag is its
//!   self-CPI: account [0] must be there (`NotEnoughAccountKeys`) and sign
//!   (`Custom(2002)`, `ConstraintSigner`); the harness never signs it, so
//!   such a call fails; anything else is `Custom(101)`;
//! - the argument's borsh encoding, before any account (`Custom(102)`,
//!   `InstructionDidNotDeserialize`; trailing bytes ignored; a string
//!   claiming more than the heap aborts, [`super::string_claim`]);
//! - the handler's accounts: one, `emit_cpi` three (`Custom(3005)`); then
//!   account [0] writable (`Custom(2000)`); for `emit_cpi`, account [1]
//!   the event authority (its `address` constraint, `Custom(2012)`);
//! - account [0] long enough for the stored field (`AccountDataTooSmall`).
//!
//! A success writes only the stored field and emits the discriminator of
//! `event:<type>` and the record's borsh encoding: one `Program data:`
//! line, or for `emit_cpi` one inner instruction to the program itself,
//! Anchor's event tag before them.

use solana_program_error::ProgramError;

pub use super::{CONSTRAINT_ADDRESS, CONSTRAINT_SIGNER, DID_NOT_DESERIALIZE_ARGS};
use super::{CONSTRAINT_MUT, FALLBACK_NOT_FOUND, NOT_ENOUGH_KEYS, metadata};
use crate::{
    Case, Emitted, Family, Input, Program,
    frameworks::anchor2::{
        calls::{EVENT_IX_TAG, case_emitting, event_authority},
        discriminator, instruction,
    },
    metadata::{INSTANCES, instance},
    token::record::{ACCOUNT_LEN, Encoding},
};

/// The folder of a family's program, under `programs/anchor1/<family>/`.
pub const FOLDER: &str = "args_and_events";

const DISCRIMINATOR_LEN: usize = 8;

/// Whether `program` is the arguments-and-events program.
pub fn holds_calls(program: &Program) -> bool {
    program.name.ends_with(&format!("/{FOLDER}"))
}

/// A handler of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handler {
    /// The arguments alone.
    SetRecord,
    /// `emit!` (borsh, logged).
    EmitEvent,
    /// `emit_cpi!` (borsh, in a self-CPI).
    EmitCpi,
}

impl Handler {
    pub const ALL: [Handler; 3] = [Handler::SetRecord, Handler::EmitEvent, Handler::EmitCpi];

    /// The handler's name, which is also its row's operation.
    pub fn name(self) -> &'static str {
        match self {
            Handler::SetRecord => "set_record",
            Handler::EmitEvent => "emit_event",
            Handler::EmitCpi => "emit_cpi",
        }
    }

    /// The handler a discriminator names.
    fn named(instruction_data: &[u8]) -> Option<Handler> {
        let tag = instruction_data.get(..DISCRIMINATOR_LEN)?;
        Handler::ALL
            .into_iter()
            .find(|call| instruction(call.name()) == tag)
    }

    /// How many accounts its handler takes.
    fn accounts(self) -> usize {
        if self == Handler::EmitCpi { 3 } else { 1 }
    }
}

/// The record's borsh encoding at the start of `args` (as Anchor decodes
/// the argument, trailing bytes ignored), and the field a handler stores;
/// or the decode's refusal.
fn decode(family: Family, args: &[u8]) -> Result<(Vec<u8>, Vec<u8>), ProgramError> {
    match family {
        Family::Metadata => {
            let (record, len) = metadata::decode_argument(args)?;
            Ok((
                args[..len].to_vec(),
                record.seller_fee_basis_points.to_le_bytes().to_vec(),
            ))
        }
        _ => {
            let record = args.get(..ACCOUNT_LEN).ok_or(DID_NOT_DESERIALIZE_ARGS)?;
            Ok((record.to_vec(), record[ACCOUNT_LEN - 32..].to_vec()))
        }
    }
}

/// The event type the program's record is.
fn event_type(family: Family) -> &'static str {
    match family {
        Family::Metadata => "Metadata",
        _ => "TokenRecord",
    }
}

/// The benchmark call of `call` with `record` (its borsh encoding):
/// account [0] 48 bytes of `0x77`, writable; for `emit_cpi`, the event
/// authority and the program after it.
pub fn valid_input(program: &Program, call: Handler, record: &[u8]) -> Input {
    Input {
        instruction_data: [&instruction(call.name())[..], record].concat(),
        account_count: call.accounts(),
        writable: true,
        data: vec![0x77; 48],
        owner_key: event_authority(program).to_bytes(),
    }
}

/// The case of `input` on `program`, emitting what the contract says.
pub fn case(program: &Program, operation: &str, input: &Input) -> Case {
    case_emitting(program, operation, input, emitted(program, input))
}

/// Each handler's benchmark call: the token family's fixture; the
/// metadata family's three instances.
pub fn cases(program: &Program) -> Vec<Case> {
    match program.family {
        Family::Metadata => INSTANCES
            .into_iter()
            .flat_map(|name| {
                let record = borsh::to_vec(&instance(name)).expect("a record encodes");
                Handler::ALL.map(|call| {
                    case(program, call.name(), &valid_input(program, call, &record))
                        .with_instance(name, record.len())
                })
            })
            .collect(),
        _ => {
            let record = Encoding::Raw.fixture();
            Handler::ALL
                .into_iter()
                .map(|call| case(program, call.name(), &valid_input(program, call, &record)))
                .collect()
        }
    }
}

/// What `input` must produce (the module's contract): account [0]'s data
/// after it, or the error.
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    let data = &input.instruction_data;
    let Some(call) = Handler::named(data) else {
        if data.starts_with(&EVENT_IX_TAG) {
            return Err(if input.account_count < 1 {
                ProgramError::NotEnoughAccountKeys
            } else {
                CONSTRAINT_SIGNER
            });
        }
        return Err(FALLBACK_NOT_FOUND);
    };
    let (_, stored) = decode(program.family, &data[DISCRIMINATOR_LEN..])?;
    if input.account_count < call.accounts() {
        return Err(NOT_ENOUGH_KEYS);
    }
    if !input.writable {
        return Err(CONSTRAINT_MUT);
    }
    if call == Handler::EmitCpi && input.owner_key != event_authority(program).to_bytes() {
        return Err(CONSTRAINT_ADDRESS);
    }
    let mut after = input.data.clone();
    after
        .get_mut(..stored.len())
        .ok_or(ProgramError::AccountDataTooSmall)?
        .copy_from_slice(&stored);
    Ok(after)
}

/// What a successful `input` must emit: the event's discriminator and the
/// record's encoding, logged or (`emit_cpi`) after Anchor's event tag in a
/// self-CPI; nothing for `set_record` or a call that fails.
pub fn emitted(program: &Program, input: &Input) -> Option<Emitted> {
    expected(program, input).ok()?;
    let data = &input.instruction_data;
    let (record, _) = decode(program.family, &data[DISCRIMINATOR_LEN..]).ok()?;
    let event = [
        &discriminator("event", event_type(program.family))[..],
        &record,
    ]
    .concat();
    match Handler::named(data)? {
        Handler::SetRecord => None,
        Handler::EmitEvent => Some(Emitted::Log(event)),
        Handler::EmitCpi => Some(Emitted::SelfCpi([&EVENT_IX_TAG[..], &event].concat())),
    }
}
