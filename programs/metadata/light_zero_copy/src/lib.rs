//! light-zero-copy over borsh's bytes (the same account as the `borsh`
//! program), through the derived views of `LightHead` (the key through
//! `is_mutable`) and `LightTail` (the options after it): the derives have
//! no `String`, no enum in a writable view and no enum variant with named
//! fields, so the record is split in two and its strings read as bytes
//! (common/src/metadata/light.rs says how). `zero_copy_at` checks every
//! length against the data and every option and enum tag it passes; the
//! strings are slices, the creators a `Vec` of views (the one allocation).
//! The crate leaves `bool`s as their byte and strings unchecked, so the
//! program checks, by hand, the key, the spec's bounds and what each
//! operation reads:
//! - `full`: both views (`zero_copy_at_mut` for the head), then every
//!   string's UTF-8 and every bool: the whole record; then one byte set
//!   in place;
//! - `read_collection`: both views, and the collection's `verified`;
//! - `verify_creator`: the head's writable view, then one byte set;
//! - `read_royalty`: the head's view;
//! - `set_uri`: both views (to find the record's end), and `is_mutable`;
//!   the crate cannot resize a `Vec`, so the new uri and its length are
//!   written by hand and what follows it moved.
#![no_std]

use common::{
    Address, ProgramError, ProgramResult, invalid_account_data,
    metadata::{
        Format, LightHead, LightTail, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI, ZLightHead,
        ZLightHeadMut, check_authority, check_new_uri, replace_borsh_string,
    },
};
use light_zero_copy::traits::{ZeroCopyAt, ZeroCopyAtMut};

const INVALID: ProgramError = ProgramError::InvalidAccountData;
/// The borsh tag of `Key::MetadataV1`.
const METADATA_V1: u8 = 4;
/// Where borsh puts the name's length: after the key, authority and mint.
const NAME_AT: usize = 65;

/// The key and the spec's bounds on what the head holds.
fn check_head(key: u8, strings: [&[u8]; 3], creators: usize) -> ProgramResult {
    let [name, symbol, uri] = strings;
    if key == METADATA_V1
        && name.len() <= MAX_NAME
        && symbol.len() <= MAX_SYMBOL
        && uri.len() <= MAX_URI
        && creators <= MAX_CREATORS
    {
        Ok(())
    } else {
        Err(INVALID)
    }
}

/// A bool's byte.
fn flag(byte: u8) -> Result<bool, ProgramError> {
    match byte {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(INVALID),
    }
}

fn head(data: &[u8]) -> Result<(ZLightHead<'_>, &[u8]), ProgramError> {
    let (head, rest) = LightHead::zero_copy_at(data).map_err(invalid_account_data)?;
    let creators = head.creators.as_ref().map_or(0, |c| c.len());
    check_head(head.key, [head.name, head.symbol, head.uri], creators)?;
    Ok((head, rest))
}

fn head_mut(data: &mut [u8]) -> Result<(ZLightHeadMut<'_>, &mut [u8]), ProgramError> {
    let (head, rest) = LightHead::zero_copy_at_mut(data).map_err(invalid_account_data)?;
    let creators = head.creators.as_ref().map_or(0, |c| c.len());
    check_head(head.key, [&*head.name, &*head.symbol, &*head.uri], creators)?;
    Ok((head, rest))
}

/// The tail's view, and the bytes after the record.
fn tail(rest: &[u8]) -> Result<(common::metadata::ZLightTail<'_>, &[u8]), ProgramError> {
    LightTail::zero_copy_at(rest).map_err(invalid_account_data)
}

struct LightZeroCopy;

impl Format for LightZeroCopy {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let (mut head, rest) = head_mut(data)?;
        let (tail, _) = tail(rest)?;
        for text in [&*head.name, &*head.symbol, &*head.uri] {
            core::str::from_utf8(text).map_err(invalid_account_data)?;
        }
        for creator in head.creators.iter().flatten() {
            flag(creator.verified)?;
        }
        flag(*head.primary_sale_happened)?;
        flag(*head.is_mutable)?;
        if let Some(collection) = &tail.collection {
            flag(collection.verified)?;
        }
        check_authority(&head.update_authority, authority)?;
        *head.primary_sale_happened = 1;
        Ok(())
    }

    fn read_collection(data: &[u8], key: &[u8; 32]) -> ProgramResult {
        let (_, rest) = head(data)?;
        let (tail, _) = tail(rest)?;
        let Some(collection) = tail.collection else {
            return Err(ProgramError::InvalidArgument);
        };
        if flag(collection.verified)? && &collection.key == key {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn verify_creator(data: &mut [u8], creator: &Address) -> ProgramResult {
        let (head, _) = head_mut(data)?;
        let found = head
            .creators
            .into_iter()
            .flatten()
            .find(|c| &c.address == creator.as_array());
        match found {
            Some(mut found) => {
                found.verified = 1;
                Ok(())
            }
            None => Err(ProgramError::InvalidArgument),
        }
    }

    fn read_royalty(data: &[u8], bps: u16) -> ProgramResult {
        if head(data)?.0.seller_fee_basis_points.get() == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn set_uri(data: &mut [u8], authority: &Address, uri: &[u8]) -> ProgramResult {
        let (uri_at, old_len, end, is_mutable) = {
            let (head, rest) = head(data)?;
            let (_, after) = tail(rest)?;
            let is_mutable = flag(head.is_mutable)?;
            check_authority(&head.update_authority, authority)?;
            let uri_at = NAME_AT + 4 + head.name.len() + 4 + head.symbol.len();
            (uri_at, head.uri.len(), data.len() - after.len(), is_mutable)
        };
        let uri = check_new_uri(is_mutable, uri)?.as_bytes();
        replace_borsh_string(data, uri_at, old_len, end, uri)
    }
}

common::metadata_program!(LightZeroCopy);
