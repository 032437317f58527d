//! rkyv: `Metadata`'s archive (`ArchivedMetadata`: strings and creators
//! behind relative pointers, the root at the archive's end), after its
//! length (`u64` LE, [`ARCHIVE_AT`] bytes): the account is allocated at the
//! largest archive, and rkyv finds its root from the archive's end. Every
//! operation first takes the checked access (`access` / `access_mut`,
//! through bytecheck), which validates the whole archive: bounds,
//! alignment, every relative pointer and length, every string's UTF-8,
//! every bool and tag. Then the spec's bounds (key `MetadataV1`, string
//! lengths, at most five creators), and:
//! - `read_collection`, `read_royalty`: read in place, nothing copied;
//! - `full`, `verify_creator`: one bool set in place through the `Seal`
//!   (`munge`);
//! - `set_uri`: an archived string cannot change length in place (it
//!   would move the root and every pointer after it), so, as rkyv's
//!   documentation has it, `deserialize` into a `Metadata`, replace the
//!   uri, `to_bytes`, and write the new archive and its length over the
//!   old, zeroing what a shorter one frees.
//!
//! The archive must sit at an 8-byte boundary (`ArchivedMetadata` holds
//! `u64`s): the runtime aligns account data to 8 bytes and the length
//! takes 8. Errors are `rancor::Failure`. `access_unchecked` (no
//! validation) is not taken: account data is untrusted.
#![no_std]

use common::{
    Address, ProgramError, ProgramResult, invalid_account_data,
    metadata::{
        ARCHIVE_AT, ArchivedCreator, ArchivedKey, ArchivedMetadata, Format, MAX_CREATORS, MAX_NAME,
        MAX_SYMBOL, MAX_URI, Metadata, check_authority, check_new_uri,
    },
};
use rkyv::{munge::munge, option::ArchivedOption, rancor::Failure, seal::Seal, vec::ArchivedVec};

const INVALID: ProgramError = ProgramError::InvalidAccountData;

/// The archive's byte range, from its length.
fn archive_end(data: &[u8]) -> Result<usize, ProgramError> {
    let len = data.first_chunk().map(|len| u64::from_le_bytes(*len));
    len.and_then(|len| usize::try_from(len).ok())
        .and_then(|len| len.checked_add(ARCHIVE_AT))
        .filter(|&end| end <= data.len())
        .ok_or(INVALID)
}

/// The spec's bounds, beyond what bytecheck validates.
fn within_bounds(record: &ArchivedMetadata) -> ProgramResult {
    let creators = record.creators.as_ref().map_or(0, |c| c.len());
    if matches!(record.key, ArchivedKey::MetadataV1)
        && record.name.len() <= MAX_NAME
        && record.symbol.len() <= MAX_SYMBOL
        && record.uri.len() <= MAX_URI
        && creators <= MAX_CREATORS
    {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// The checked read of the whole archive.
fn view(data: &[u8]) -> Result<&ArchivedMetadata, ProgramError> {
    let archive = &data[ARCHIVE_AT..archive_end(data)?];
    let record =
        rkyv::access::<ArchivedMetadata, Failure>(archive).map_err(invalid_account_data)?;
    within_bounds(record)?;
    Ok(record)
}

/// The checked, writable access to the whole archive.
fn view_mut(data: &mut [u8]) -> Result<Seal<'_, ArchivedMetadata>, ProgramError> {
    let end = archive_end(data)?;
    let archive = &mut data[ARCHIVE_AT..end];
    let record =
        rkyv::access_mut::<ArchivedMetadata, Failure>(archive).map_err(invalid_account_data)?;
    within_bounds(&record)?;
    Ok(record)
}

struct Rkyv;

impl Format for Rkyv {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let record = view_mut(data)?;
        check_authority(&record.update_authority, authority)?;
        munge!(let ArchivedMetadata { mut primary_sale_happened, .. } = record);
        *primary_sale_happened = true;
        Ok(())
    }

    fn read_collection(data: &[u8], key: &[u8; 32]) -> ProgramResult {
        match view(data)?.collection.as_ref() {
            Some(c) if c.verified && &c.key == key => Ok(()),
            _ => Err(ProgramError::InvalidArgument),
        }
    }

    fn verify_creator(data: &mut [u8], creator: &Address) -> ProgramResult {
        let record = view_mut(data)?;
        munge!(let ArchivedMetadata { creators, .. } = record);
        let creators = ArchivedOption::as_seal(creators)
            .map(ArchivedVec::as_slice_seal)
            .ok_or(ProgramError::InvalidArgument)?;
        let found = creators
            .iter()
            .position(|c| &c.address == creator.as_array())
            .ok_or(ProgramError::InvalidArgument)?;
        munge!(let ArchivedCreator { mut verified, .. } = creators.index(found));
        *verified = true;
        Ok(())
    }

    fn read_royalty(data: &[u8], bps: u16) -> ProgramResult {
        if view(data)?.seller_fee_basis_points == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn set_uri(data: &mut [u8], authority: &Address, uri: &[u8]) -> ProgramResult {
        let old_end = archive_end(data)?;
        let archived = view(data)?;
        check_authority(&archived.update_authority, authority)?;
        let uri = check_new_uri(archived.is_mutable, uri)?;
        let mut record: Metadata =
            rkyv::deserialize::<Metadata, Failure>(archived).map_err(invalid_account_data)?;
        record.uri = uri.into();
        let bytes = rkyv::to_bytes::<Failure>(&record).map_err(invalid_account_data)?;
        let end = ARCHIVE_AT + bytes.len();
        let slot = data.get_mut(ARCHIVE_AT..end).ok_or(INVALID)?;
        slot.copy_from_slice(&bytes);
        data[..ARCHIVE_AT].copy_from_slice(&(bytes.len() as u64).to_le_bytes());
        if let Some(freed) = data.get_mut(end..old_end) {
            freed.fill(0);
        }
        Ok(())
    }
}

common::metadata_program!(Rkyv);
