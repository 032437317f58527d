//! The five operations for a crate that decodes the record into a value
//! (borsh, bincode, postcard, wincode): written once, so every such crate
//! runs the same code around its own decode and encode.

use core::marker::PhantomData;

use alloc::string::String;
use pinocchio::{Address, ProgramResult, error::ProgramError};

use super::{Format, Metadata, check_authority, check_new_uri};

/// A crate's decode and encode of the whole record, at the start of the
/// account (the bytes after the encoding are not the record's).
pub trait Codec {
    /// The record encoded at the start of `data`, and its encoding's length.
    fn decode(data: &[u8]) -> Result<(Metadata, usize), ProgramError>;
    /// Encodes `value` at the start of `data`; the length written.
    fn encode(value: &Metadata, data: &mut [u8]) -> Result<usize, ProgramError>;
    /// The length of `value`'s encoding, from the crate's own size
    /// computation, so that a write that would not fit fails before its
    /// first byte (an encoder into a slice writes as it goes).
    fn encoded_len(value: &Metadata) -> Result<usize, ProgramError>;
}

/// The operations as owned decodes: every operation decodes (and so
/// validates) the whole record; the writing ones encode it back and zero
/// what a shorter encoding frees.
pub struct Owned<C>(PhantomData<C>);

/// A decode that also holds the record to the spec's bounds (key, string
/// lengths, creator count): the crate's types check UTF-8, bools and tags.
#[inline(always)]
fn decode<C: Codec>(data: &[u8]) -> Result<(Metadata, usize), ProgramError> {
    let (record, len) = C::decode(data)?;
    if record.is_valid() {
        Ok((record, len))
    } else {
        Err(ProgramError::InvalidAccountData)
    }
}

/// Writes `record` over an encoding of `old_len` bytes. The caller knows
/// the new encoding fits: `full` and `verify_creator` only flip a bool (the
/// same length as what was decoded from `data`), `set_uri` checks first.
#[inline(always)]
fn write_back<C: Codec>(record: &Metadata, data: &mut [u8], old_len: usize) -> ProgramResult {
    let len = C::encode(record, data)?;
    if let Some(freed) = data.get_mut(len..old_len) {
        freed.fill(0);
    }
    Ok(())
}

impl<C: Codec> Format for Owned<C> {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let (mut record, len) = decode::<C>(data)?;
        check_authority(&record.update_authority, authority)?;
        record.primary_sale_happened = true;
        write_back::<C>(&record, data, len)
    }

    fn read_collection(data: &[u8], key: &[u8; 32]) -> ProgramResult {
        match decode::<C>(data)?.0.collection {
            Some(collection) if collection.verified && &collection.key == key => Ok(()),
            _ => Err(ProgramError::InvalidArgument),
        }
    }

    fn verify_creator(data: &mut [u8], creator: &Address) -> ProgramResult {
        let (mut record, len) = decode::<C>(data)?;
        let found = record
            .creators
            .iter_mut()
            .flatten()
            .find(|c| &c.address == creator.as_array())
            .ok_or(ProgramError::InvalidArgument)?;
        found.verified = true;
        write_back::<C>(&record, data, len)
    }

    fn read_royalty(data: &[u8], bps: u16) -> ProgramResult {
        if decode::<C>(data)?.0.seller_fee_basis_points == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn set_uri(data: &mut [u8], authority: &Address, uri: &[u8]) -> ProgramResult {
        let (mut record, len) = decode::<C>(data)?;
        check_authority(&record.update_authority, authority)?;
        record.uri = String::from(check_new_uri(record.is_mutable, uri)?);
        // A longer uri may not fit the account: refuse before writing.
        if C::encoded_len(&record)? > data.len() {
            return Err(ProgramError::InvalidAccountData);
        }
        write_back::<C>(&record, data, len)
    }
}
