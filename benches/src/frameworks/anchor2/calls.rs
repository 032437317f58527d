//! A family's record as Anchor 2 instruction arguments and as its events
//! (`programs/anchor2/<family>/args_and_events`). Each handler takes the
//! record as its one argument and stores one field of it at the start of
//! account [0] (the token record's `close_authority`, the metadata
//! record's `seller_fee_basis_points`); the `emit_*` handlers then emit the
//! record. Anchor's checks, in its order (each on an input made for it in
//! benches/tests/anchor2.rs):
//! - data starting with Anchor's event tag is its self-CPI: account [0]
//!   must be there (`NotEnoughAccountKeys`) and sign (Anchor's
//!   `ConstraintSigner`, which it returns as `MissingRequiredSignature`);
//!   the harness never signs it, so such a call fails;
//! - the instruction discriminator (`InvalidInstructionData`);
//! - the handler's accounts: one, `emit_cpi` three (`NotEnoughAccountKeys`);
//!   account [0] writable (`Custom(2000)`); for `emit_cpi`, account [1]
//!   the event authority, the PDA of `__event_authority` (Anchor's
//!   `ConstraintSeeds`, returned as `InvalidSeeds`);
//! - the argument's borsh encoding, trailing bytes ignored
//!   (`InvalidInstructionData`);
//! - account [0] long enough for the stored field (`AccountDataTooSmall`).
//!
//! A success writes only the stored field and emits the discriminator of
//! `event:<type>` and the record's borsh encoding (the Pod record's memory
//! for `#[event(bytemuck)]`, the same bytes): one `Program data:` line, or
//! for `emit_cpi` one inner instruction to the program itself, Anchor's
//! event tag before them.

use solana_program_error::ProgramError;
use solana_pubkey::Pubkey;

use super::{discriminator, instruction, metadata, token::CONSTRAINT_MUT};
use crate::{
    Case, Emitted, Family, Input, Program,
    case::EXTRA_ACCOUNT,
    metadata::{INSTANCES, instance},
    token::record::Encoding,
};

/// The folder of a family's program, under `programs/anchor2/<family>/`.
pub const FOLDER: &str = "args_and_events";
/// Anchor's self-CPI event instruction tag (`EVENT_IX_TAG`), as it leads
/// the instruction data.
pub const EVENT_IX_TAG: [u8; 8] = 0x1d9acb512ea545e4_u64.to_le_bytes();

const DISCRIMINATOR_LEN: usize = 8;

/// Whether `program` is a family's arguments-and-events program.
pub fn holds_calls(program: &Program) -> bool {
    program.name.ends_with(&format!("/{FOLDER}"))
}

/// A handler of the program, by what it does after the decode and store.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Handler {
    /// Nothing: the arguments alone.
    SetRecord,
    /// `emit!` of the `#[event]` record (wincode).
    EmitEvent,
    /// `emit!` of the `#[event(bytemuck)]` record (the token record only).
    EmitBytemuck,
    /// Anchor 1.x's `emit!` (borsh).
    EmitBorsh,
    /// `emit_cpi!` of the `#[event]` record.
    EmitCpi,
}

impl Handler {
    pub const ALL: [Handler; 5] = [
        Handler::SetRecord,
        Handler::EmitEvent,
        Handler::EmitBytemuck,
        Handler::EmitBorsh,
        Handler::EmitCpi,
    ];

    /// The handler's name, which is also its row's operation.
    pub fn name(self) -> &'static str {
        match self {
            Handler::SetRecord => "set_record",
            Handler::EmitEvent => "emit_event",
            Handler::EmitBytemuck => "emit_bytemuck",
            Handler::EmitBorsh => "emit_borsh",
            Handler::EmitCpi => "emit_cpi",
        }
    }

    /// The handlers of `family`'s program (a record with strings has no
    /// `#[event(bytemuck)]`).
    pub fn of(family: Family) -> Vec<Handler> {
        Handler::ALL
            .into_iter()
            .filter(|&call| family == Family::Token || call != Handler::EmitBytemuck)
            .collect()
    }

    /// The handler a discriminator names in `family`'s program.
    fn named(family: Family, instruction_data: &[u8]) -> Option<Handler> {
        let tag = instruction_data.get(..DISCRIMINATOR_LEN)?;
        Handler::of(family)
            .into_iter()
            .find(|call| instruction(call.name()) == tag)
    }

    /// The event type it emits.
    fn event_type(self, family: Family) -> Option<&'static str> {
        match (self, family) {
            (Handler::SetRecord, _) => None,
            (Handler::EmitBytemuck, _) => Some("TokenRecordPod"),
            (_, Family::Token) => Some("TokenRecord"),
            (_, _) => Some("Metadata"),
        }
    }

    /// How many accounts its handler takes.
    fn accounts(self) -> usize {
        if self == Handler::EmitCpi { 3 } else { 1 }
    }
}

/// The program's event authority: the PDA of `__event_authority`.
pub fn event_authority(program: &Program) -> Pubkey {
    Pubkey::find_program_address(&[b"__event_authority"], &program.id).0
}

/// The record's borsh encoding at the start of `args` (as Anchor decodes
/// the argument, trailing bytes ignored), and the field a handler stores.
fn decode(family: Family, args: &[u8]) -> Option<(Vec<u8>, Vec<u8>)> {
    match family {
        Family::Token => {
            let record = args.get(..Encoding::Raw.fixture().len())?;
            let close_authority = &record[record.len() - 32..];
            Some((record.to_vec(), close_authority.to_vec()))
        }
        Family::Metadata => {
            let (record, len) = metadata::decode(args)?;
            Some((
                args[..len].to_vec(),
                record.seller_fee_basis_points.to_le_bytes().to_vec(),
            ))
        }
        Family::Message => None,
    }
}

/// The instruction data calling `call` with `record` (its borsh encoding).
pub fn instruction_data(call: Handler, record: &[u8]) -> Vec<u8> {
    [&instruction(call.name())[..], record].concat()
}

/// The benchmark call of `call` with `record`: account [0] 48 bytes of
/// `0x77`, writable; for `emit_cpi`, the event authority and the program
/// after it.
pub fn valid_input(program: &Program, call: Handler, record: &[u8]) -> Input {
    Input {
        instruction_data: instruction_data(call, record),
        account_count: call.accounts(),
        writable: true,
        data: vec![0x77; 48],
        owner_key: event_authority(program).to_bytes(),
    }
}

/// The case of `input` on `program`: account [1] is `input.owner_key`
/// (the event authority, where the handler takes one), account [2] the
/// program itself; a success must emit what the contract says.
pub fn case(program: &Program, operation: &str, input: &Input) -> Case {
    case_emitting(program, operation, input, emitted(program, input))
}

/// [`case`] with what a success must emit given: the program account
/// placed as account [2], where the input has one (Anchor 1.x's calls
/// too).
pub fn case_emitting(
    program: &Program,
    operation: &str,
    input: &Input,
    emits: Option<Emitted>,
) -> Case {
    let mut case = Case::new(program, operation, input);
    if let Some(at) = case
        .accounts
        .iter()
        .position(|(key, _)| *key == EXTRA_ACCOUNT)
    {
        case.accounts[at] = (
            program.id,
            mollusk_svm::program::create_program_account_loader_v3(&program.id),
        );
        case.instruction.accounts[at].pubkey = program.id;
    }
    case.emits = emits;
    case
}

/// Each handler's benchmark call: the token family's fixture; the
/// metadata family's three instances.
pub fn cases(program: &Program) -> Vec<Case> {
    let calls = Handler::of(program.family);
    match program.family {
        Family::Metadata => INSTANCES
            .into_iter()
            .flat_map(|name| {
                let record = metadata::encode(&instance(name));
                calls.iter().map(move |&call| {
                    case(program, call.name(), &valid_input(program, call, &record))
                        .with_instance(name, record.len())
                })
            })
            .collect(),
        _ => {
            let record = Encoding::Raw.fixture();
            calls
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
    if data.get(..DISCRIMINATOR_LEN) == Some(&EVENT_IX_TAG[..]) {
        return Err(if input.account_count < 1 {
            ProgramError::NotEnoughAccountKeys
        } else {
            ProgramError::MissingRequiredSignature
        });
    }
    let call = Handler::named(program.family, data).ok_or(ProgramError::InvalidInstructionData)?;
    if input.account_count < call.accounts() {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    if !input.writable {
        return Err(CONSTRAINT_MUT);
    }
    if call == Handler::EmitCpi && input.owner_key != event_authority(program).to_bytes() {
        return Err(ProgramError::InvalidSeeds);
    }
    let (_, stored) = decode(program.family, &data[DISCRIMINATOR_LEN..])
        .ok_or(ProgramError::InvalidInstructionData)?;
    let mut after = input.data.clone();
    after
        .get_mut(..stored.len())
        .ok_or(ProgramError::AccountDataTooSmall)?
        .copy_from_slice(&stored);
    Ok(after)
}

/// What a successful `input` must emit: the event's discriminator and the
/// record's encoding, logged or (`emit_cpi`) after Anchor's event tag in
/// a self-CPI; nothing for `set_record` or a call that fails.
pub fn emitted(program: &Program, input: &Input) -> Option<Emitted> {
    expected(program, input).ok()?;
    let data = &input.instruction_data;
    let call = Handler::named(program.family, data)?;
    let (record, _) = decode(program.family, &data[DISCRIMINATOR_LEN..])?;
    let event = [
        &discriminator("event", call.event_type(program.family)?)[..],
        &record,
    ]
    .concat();
    Some(match call {
        Handler::EmitCpi => Emitted::SelfCpi([&EVENT_IX_TAG[..], &event].concat()),
        _ => Emitted::Log(event),
    })
}
