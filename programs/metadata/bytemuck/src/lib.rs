//! bytemuck: the fixed-capacity redesign (`FixedCapacity`, a `repr(C)`
//! `Pod` struct of bytes, 586 bytes for every record), cast in place with
//! `try_from_bytes` / `try_from_bytes_mut`: nothing is decoded, copied or
//! moved. A cast checks only the length (the struct has alignment 1), so
//! each operation checks the fields it reads, and the key, itself:
//! - `full`: the whole record (every length within its capacity, the
//!   strings' UTF-8, every bool, flag and tag; not the unused bytes), then
//!   sets one byte;
//! - `read_collection`: the collection's flag and `verified`;
//! - `verify_creator`: the creators' count, then sets one byte;
//! - `read_royalty`: nothing beyond the key;
//! - `set_uri`: `is_mutable` and the old uri's length (not its UTF-8: it
//!   is replaced unread), then writes the new uri in its slot and zeroes
//!   what a shorter uri frees.
#![no_std]

use common::{
    Address, ProgramError, ProgramResult, invalid_account_data,
    metadata::{
        FIXED_CAPACITY_LEN, FixedCapacity, FixedCreator, Format, MAX_CREATORS, check_authority,
        check_new_uri,
    },
};

const INVALID: ProgramError = ProgramError::InvalidAccountData;
/// `Key::MetadataV1`'s variant.
const METADATA_V1: u8 = 4;

/// The record over the account's first bytes; its key must be `MetadataV1`.
fn record(data: &[u8]) -> Result<&FixedCapacity, ProgramError> {
    let bytes = data.get(..FIXED_CAPACITY_LEN).ok_or(INVALID)?;
    let record: &FixedCapacity = bytemuck::try_from_bytes(bytes).map_err(invalid_account_data)?;
    if record.key == METADATA_V1 {
        Ok(record)
    } else {
        Err(INVALID)
    }
}

fn record_mut(data: &mut [u8]) -> Result<&mut FixedCapacity, ProgramError> {
    record(data)?;
    let bytes = &mut data[..FIXED_CAPACITY_LEN];
    bytemuck::try_from_bytes_mut(bytes).map_err(invalid_account_data)
}

/// A bool or an option's flag.
fn flag(byte: u8) -> Result<bool, ProgramError> {
    match byte {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(INVALID),
    }
}

/// An enum's variant, below `variants`.
fn tag(byte: u8, variants: u8) -> ProgramResult {
    if byte < variants {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// The first `len` bytes of a slot, as UTF-8.
fn text(len: u8, slot: &[u8]) -> ProgramResult {
    let bytes = slot.get(..usize::from(len)).ok_or(INVALID)?;
    core::str::from_utf8(bytes).map_err(invalid_account_data)?;
    Ok(())
}

/// The creators in use: the count must be at most five.
fn creators(
    count: u8,
    slots: &[FixedCreator; MAX_CREATORS],
) -> Result<&[FixedCreator], ProgramError> {
    slots.get(..usize::from(count)).ok_or(INVALID)
}

/// Every field `full` validates, in the record's order.
fn validate(r: &FixedCapacity) -> ProgramResult {
    text(r.name_len, &r.name)?;
    text(r.symbol_len, &r.symbol)?;
    text(r.uri_len, &r.uri)?;
    for creator in creators(r.creator_count, &r.creators)? {
        flag(creator.verified)?;
    }
    flag(r.primary_sale_happened)?;
    flag(r.is_mutable)?;
    flag(r.has_edition_nonce)?;
    if flag(r.has_token_standard)? {
        tag(r.token_standard, 6)?;
    }
    if flag(r.has_collection)? {
        flag(r.collection_verified)?;
    }
    if flag(r.has_uses)? {
        tag(r.use_method, 3)?;
    }
    if flag(r.has_collection_details)? {
        tag(r.collection_details, 2)?;
    }
    if flag(r.has_programmable_config)? {
        tag(r.programmable_config, 1)?;
        flag(r.has_rule_set)?;
    }
    Ok(())
}

struct Bytemuck;

impl Format for Bytemuck {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let record = record_mut(data)?;
        validate(record)?;
        check_authority(&record.update_authority, authority)?;
        record.primary_sale_happened = 1;
        Ok(())
    }

    fn read_collection(data: &[u8], key: &[u8; 32]) -> ProgramResult {
        let record = record(data)?;
        if flag(record.has_collection)?
            && flag(record.collection_verified)?
            && &record.collection_key == key
        {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn verify_creator(data: &mut [u8], creator: &Address) -> ProgramResult {
        let record = record_mut(data)?;
        let found = creators(record.creator_count, &record.creators)?
            .iter()
            .position(|c| &c.address == creator.as_array())
            .ok_or(ProgramError::InvalidArgument)?;
        record.creators[found].verified = 1;
        Ok(())
    }

    fn read_royalty(data: &[u8], bps: u16) -> ProgramResult {
        if u16::from_le_bytes(record(data)?.seller_fee_basis_points) == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn set_uri(data: &mut [u8], authority: &Address, uri: &[u8]) -> ProgramResult {
        let record = record_mut(data)?;
        let old_len = usize::from(record.uri_len);
        if old_len > record.uri.len() {
            return Err(INVALID);
        }
        let is_mutable = flag(record.is_mutable)?;
        check_authority(&record.update_authority, authority)?;
        let uri = check_new_uri(is_mutable, uri)?.as_bytes();
        record.uri[..uri.len()].copy_from_slice(uri);
        if let Some(freed) = record.uri.get_mut(uri.len()..old_len) {
            freed.fill(0);
        }
        record.uri_len = uri.len() as u8;
        Ok(())
    }
}

common::metadata_program!(Bytemuck);
