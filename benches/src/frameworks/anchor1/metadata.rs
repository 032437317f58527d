//! The metadata family's record in Anchor 1.x, as `Account<T>`: its borsh
//! encoding behind the `Metadata` discriminator, in an account sized for
//! the largest record, the same bytes and calls as Anchor 2's
//! (`anchor2::metadata`). Anchor 1.x's checks, in its order: the
//! instruction discriminator (`Custom(101)`, `Custom(1500)` for the event
//! tag); the arguments' borsh encoding (`Custom(102)`; a uri that is not
//! UTF-8 is one: Anchor 1.x decodes them before the accounts); account [0]
//! there (`Custom(3005)`), the discriminator (`Custom(3001)`,
//! `Custom(3002)`) and the record's borsh decoding (`Custom(3003)`);
//! account [1] there (`Custom(3005)`); account [0] writable for `full`,
//! `verify_creator` and `set_uri` (`Custom(2000)`); account [1] the update
//! authority for `full` and `set_uri` (`has_one`, `Custom(2001)`); then the
//! operation's own refusals, the family's `InvalidArgument`, and for
//! `set_uri` a record that would not fit the account (`InvalidAccountData`).
//! The record's bounds are not checked on load. A `String` (the uri
//! argument, the record's name, symbol and uri) whose length prefix claims
//! more than the data holds makes borsh preallocate `min(claim, 1 MiB)`
//! bytes: past the heap the program aborts ([`super::string_claim`]). A write encodes the record
//! back from byte 8; unlike the family (and Anchor 2), bytes a shorter
//! encoding frees keep what they held: Anchor 1.x's writer does not clear
//! them.

use borsh::BorshDeserialize;
use common::metadata::{MAX_URI, Metadata};
use solana_program_error::ProgramError;

use super::{
    CONSTRAINT_HAS_ONE, CONSTRAINT_MUT, DID_NOT_DESERIALIZE, DID_NOT_DESERIALIZE_ARGS,
    NOT_ENOUGH_KEYS, check_discriminator, no_handler, string_claim,
};
use crate::{
    Input,
    frameworks::anchor2::metadata::{Operation, RECORD_TYPE, checks_authority, writes},
    metadata::contract::{read_collection, read_royalty, verify_creator},
};

pub use crate::frameworks::anchor2::metadata::{account, authority_of, cases, valid_input};

const DISCRIMINATOR_LEN: usize = 8;

/// A `String` at the start of `bytes`, as borsh reads it: its length, then
/// as many bytes (an oversized claim is [`string_claim`]'s), UTF-8; the
/// bytes after it, or the decode's `error`.
fn claimed_string(bytes: &[u8], error: ProgramError) -> Result<&[u8], ProgramError> {
    let len = u32::from_le_bytes(*bytes.first_chunk().ok_or(error.clone())?) as usize;
    let rest = &bytes[4..];
    let text = rest
        .get(..len)
        .ok_or_else(|| string_claim(len, error.clone()))?;
    std::str::from_utf8(text).map_err(|_| error)?;
    Ok(&rest[len..])
}

/// The record's decode up to its last string (the key's tag, two keys,
/// then name, symbol and uri), where the only allocations that can fail
/// are: an abort or a decode error, in borsh's order; the rest of the
/// record is the host decode's to judge.
fn strings_of(payload: &[u8], error: ProgramError) -> Result<(), ProgramError> {
    let tag = *payload.first().ok_or(error.clone())?;
    if tag > 4 {
        return Err(error);
    }
    let mut rest = payload.get(1 + 64..).ok_or(error.clone())?;
    for _ in 0..3 {
        rest = claimed_string(rest, error.clone())?;
    }
    Ok(())
}

/// A `String` argument at the start of `args` (`set_uri`'s uri), as
/// Anchor 1.x decodes it: an oversized claim is [`string_claim`]'s,
/// anything else that does not decode `Custom(102)`.
fn check_string_argument(args: &[u8]) -> Result<(), ProgramError> {
    claimed_string(args, DID_NOT_DESERIALIZE_ARGS).map(|_| ())
}

/// The record as an instruction's argument at the start of `args`, as
/// Anchor 1.x decodes it (borsh, trailing bytes ignored), and its
/// encoding's length; an oversized string claim is
/// [`string_claim`]'s, anything else that does not decode `Custom(102)`.
pub fn decode_argument(args: &[u8]) -> Result<(Metadata, usize), ProgramError> {
    strings_of(args, DID_NOT_DESERIALIZE_ARGS)?;
    let mut rest = args;
    let record = Metadata::deserialize(&mut rest).map_err(|_| DID_NOT_DESERIALIZE_ARGS)?;
    Ok((record, args.len() - rest.len()))
}

fn encode(metadata: &Metadata) -> Vec<u8> {
    borsh::to_vec(metadata).expect("a record encodes")
}

/// What Anchor 1.x checks of a metadata call before it reads the record,
/// for both account types: the instruction's discriminator, the
/// arguments, account [0] there, and its discriminator. The operation's
/// name and its decoded call.
pub(crate) fn before_the_record(input: &Input) -> Result<(&'static str, Operation), ProgramError> {
    let data = &input.instruction_data;
    let name = Operation::name(data).ok_or_else(|| no_handler(data))?;
    if name == "set_uri" {
        check_string_argument(&data[DISCRIMINATOR_LEN..])?;
    }
    let call = Operation::parse(data).ok_or(DID_NOT_DESERIALIZE_ARGS)?;
    if input.account_count < 1 {
        return Err(NOT_ENOUGH_KEYS);
    }
    check_discriminator(&input.data, RECORD_TYPE)?;
    Ok((name, call))
}

/// What the Anchor 1.x metadata program must do with `input`.
pub fn expected(input: &Input) -> Result<Vec<u8>, ProgramError> {
    let (name, call) = before_the_record(input)?;
    let payload = &input.data[DISCRIMINATOR_LEN..];
    strings_of(payload, DID_NOT_DESERIALIZE)?;
    let mut record = Metadata::deserialize(&mut &payload[..]).map_err(|_| DID_NOT_DESERIALIZE)?;
    if input.account_count < 2 {
        return Err(NOT_ENOUGH_KEYS);
    }
    if writes(name) && !input.writable {
        return Err(CONSTRAINT_MUT);
    }
    if checks_authority(name) && record.update_authority != input.owner_key {
        return Err(CONSTRAINT_HAS_ONE);
    }
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
            if DISCRIMINATOR_LEN + encode(&record).len() > input.data.len() {
                return Err(ProgramError::InvalidAccountData);
            }
        }
    }
    let encoded = encode(&record);
    let mut after = input.data.clone();
    after[DISCRIMINATOR_LEN..DISCRIMINATOR_LEN + encoded.len()].copy_from_slice(&encoded);
    Ok(after)
}
