//! The metadata family's record in Anchor 2, as `BorshAccount<T>`: its
//! borsh encoding behind the `Metadata` discriminator, in an account sized
//! for the largest record (8 + 642 bytes). Anchor's checks, in its order:
//! the instruction discriminator (`InvalidInstructionData`); two accounts
//! (`NotEnoughAccountKeys`); account [0] writable for `full`,
//! `verify_creator` and `set_uri` (`Custom(2000)`); the discriminator
//! (`AccountDataTooSmall`, `InvalidAccountData`) and the record's decoding
//! (`InvalidAccountData`); account [1] the update authority for `full` and
//! `set_uri` (`Custom(2012)`); then the arguments' borsh encoding
//! (`InvalidInstructionData`; a uri that is not UTF-8 is one: Anchor
//! decodes them after the accounts); then the operation's own refusals,
//! the family's `InvalidArgument`. Unlike the family's programs, the record's
//! bounds (its key, string lengths, creator count) are not checked on
//! load: an Anchor program trusts what its discriminator and owner check
//! admit. A write encodes the record back from byte 8 and zeroes what a
//! shorter encoding frees, as the family does.

use common::metadata::{MAX_URI, Metadata};
use solana_program_error::ProgramError;

use super::{discriminator, instruction, token::CONSTRAINT_ADDRESS, token::CONSTRAINT_MUT};
use crate::{
    Case, Input, Program,
    metadata::{
        INSTANCES, OPERATIONS,
        contract::{read_collection, read_royalty, signer_of, verify_creator, write_back},
        instance, new_uri,
    },
};

/// The `#[account(borsh)]` type's name.
pub const RECORD_TYPE: &str = "Metadata";
const DISCRIMINATOR_LEN: usize = 8;

/// Anchor 2's `BORSH_CONFIG` (`BorshConfig`): borsh's wire format, with
/// wincode's default preallocation limit (4 MiB).
const BORSH: wincode::config::Configuration<
    true,
    { wincode::config::DEFAULT_PREALLOCATION_SIZE_LIMIT },
    wincode::len::FixIntLen<u32>,
    wincode::int_encoding::LittleEndian,
    wincode::int_encoding::FixInt,
    u8,
> = wincode::config::Configuration::default()
    .with_length_encoding::<wincode::len::FixIntLen<u32>>()
    .with_tag_encoding::<u8>();

pub(super) fn encode(metadata: &Metadata) -> Vec<u8> {
    wincode::config::serialize(metadata, BORSH).expect("a record encodes")
}

/// The record at the start of `payload`, and its encoding's length.
pub(super) fn decode(payload: &[u8]) -> Option<(Metadata, usize)> {
    let mut rest = payload;
    let metadata = wincode::config::deserialize_from(&mut rest, BORSH).ok()?;
    Some((metadata, payload.len() - rest.len()))
}

/// The bytes of `metadata`'s encoding (after the discriminator).
pub fn encoded_len(metadata: &Metadata) -> usize {
    encode(metadata).len()
}

/// The account holding `metadata`: the discriminator, its encoding, zeros
/// to the largest record's length.
pub fn account(metadata: &Metadata) -> Vec<u8> {
    let mut data = [
        &discriminator("account", RECORD_TYPE)[..],
        &encode(metadata),
    ]
    .concat();
    data.resize(DISCRIMINATOR_LEN + encode(&Metadata::largest()).len(), 0);
    data
}

/// The update authority of the record in an account's data, where it
/// decodes.
pub fn authority_of(data: &[u8]) -> Option<[u8; 32]> {
    let (record, _) = decode(data.get(DISCRIMINATOR_LEN..)?)?;
    Some(record.update_authority)
}

/// The operation and its decoded arguments (Anchor 1.x's too: the same
/// discriminators and borsh arguments).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Operation {
    Full,
    ReadCollection([u8; 32]),
    VerifyCreator,
    ReadRoyalty(u16),
    SetUri(String),
}

impl Operation {
    /// The call in `instruction_data`, as Anchor decodes it: the
    /// discriminator, then each argument (trailing bytes are ignored).
    /// The operation its discriminator names.
    pub(crate) fn name(instruction_data: &[u8]) -> Option<&'static str> {
        let tag = instruction_data.get(..DISCRIMINATOR_LEN)?;
        OPERATIONS.into_iter().find(|op| instruction(op) == tag)
    }

    /// The call: the operation and its arguments (`None` where they do not
    /// decode).
    pub(crate) fn parse(instruction_data: &[u8]) -> Option<Self> {
        let name = Self::name(instruction_data)?;
        let args = &instruction_data[DISCRIMINATOR_LEN..];
        Some(match name {
            "full" => Self::Full,
            "read_collection" => Self::ReadCollection(*args.first_chunk()?),
            "verify_creator" => Self::VerifyCreator,
            "read_royalty" => Self::ReadRoyalty(u16::from_le_bytes(*args.first_chunk()?)),
            "set_uri" => {
                let len = u32::from_le_bytes(*args.first_chunk()?) as usize;
                let bytes = args.get(4..4usize.checked_add(len)?)?;
                Self::SetUri(String::from_utf8(bytes.to_vec()).ok()?)
            }
            _ => unreachable!("every operation is named above"),
        })
    }
}

/// Whether the operation named `name` writes account [0].
pub(crate) fn writes(name: &str) -> bool {
    matches!(name, "full" | "verify_creator" | "set_uri")
}

/// Whether the operation named `name` checks the update authority.
pub(crate) fn checks_authority(name: &str) -> bool {
    matches!(name, "full" | "set_uri")
}

/// The instruction data of each operation's benchmark call on `metadata`,
/// the family's arguments in borsh's encoding.
pub fn instruction_data(operation: &str, metadata: &Metadata) -> Vec<u8> {
    let mut data = instruction(operation).to_vec();
    match operation {
        "read_collection" => data.extend(
            metadata
                .collection
                .as_ref()
                .map_or(metadata.mint, |c| c.key),
        ),
        "read_royalty" => data.extend(metadata.seller_fee_basis_points.to_le_bytes()),
        "set_uri" => {
            let uri = new_uri(metadata);
            data.extend((uri.len() as u32).to_le_bytes());
            data.extend(uri.as_bytes());
        }
        _ => {}
    }
    data
}

/// The family's benchmark call of `operation` on `metadata` (the same
/// accounts as the pinocchio programs'), in Anchor's encoding.
pub fn valid_input(operation: &str, metadata: &Metadata) -> Input {
    Input {
        instruction_data: instruction_data(operation, metadata),
        account_count: 2,
        writable: true,
        data: account(metadata),
        owner_key: signer_of(operation, metadata),
    }
}

pub fn cases(program: &Program) -> Vec<Case> {
    let mut cases = Vec::new();
    for name in INSTANCES {
        let metadata = instance(name);
        let encoded = DISCRIMINATOR_LEN + encode(&metadata).len();
        for op in OPERATIONS {
            let case = Case::new(program, op, &valid_input(op, &metadata));
            cases.push(case.with_instance(name, encoded));
        }
    }
    cases
}

/// What the Anchor 2 metadata program must do with `input` (the module's
/// contract).
pub fn expected(input: &Input) -> Result<Vec<u8>, ProgramError> {
    let name =
        Operation::name(&input.instruction_data).ok_or(ProgramError::InvalidInstructionData)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    if writes(name) && !input.writable {
        return Err(CONSTRAINT_MUT);
    }
    let tag = input
        .data
        .get(..DISCRIMINATOR_LEN)
        .ok_or(ProgramError::AccountDataTooSmall)?;
    if tag != discriminator("account", RECORD_TYPE) {
        return Err(ProgramError::InvalidAccountData);
    }
    let (mut record, old_len) =
        decode(&input.data[DISCRIMINATOR_LEN..]).ok_or(ProgramError::InvalidAccountData)?;
    if checks_authority(name) && record.update_authority != input.owner_key {
        return Err(CONSTRAINT_ADDRESS);
    }
    let call =
        Operation::parse(&input.instruction_data).ok_or(ProgramError::InvalidInstructionData)?;
    match call {
        Operation::Full => record.primary_sale_happened = true,
        Operation::ReadCollection(key) => {
            return read_collection(&record, &key).map(|()| input.data.clone());
        }
        Operation::VerifyCreator => verify_creator(&mut record, &input.owner_key)?,
        Operation::ReadRoyalty(bps) => {
            return read_royalty(&record, bps).map(|()| input.data.clone());
        }
        Operation::SetUri(uri) => {
            if !record.is_mutable || uri.len() > MAX_URI {
                return Err(ProgramError::InvalidArgument);
            }
            record.uri = uri;
        }
    }
    write_back(&input.data, DISCRIMINATOR_LEN, &encode(&record), old_len)
}
