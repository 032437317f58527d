//! zeropod: borsh's encoding read and written in place through its derived
//! view (`FixedFirst::view` / `view_mut`, then a getter or setter per
//! field). zeropod's derive requires the fixed-size fields first, so this
//! program stores the same record in that order (`FixedFirst`): borsh's
//! bytes of the reordered struct, not of the spec's order.
//!
//! `view` and `view_mut` validate the whole record once (every string's
//! length bound and UTF-8, every bool, option and enum tag, the creators'
//! bound), so every operation validates the whole record; the key must
//! also be `MetadataV1`. Then:
//! - `full`: `set_primary_sale_happened(true)`, one byte in place;
//! - `read_collection`, `read_royalty`: getters, nothing copied;
//! - `verify_creator`: zeropod projects into arrays and struct fields but
//!   not into an `Option<Vec<_>>`'s items, so the creators are copied out
//!   (`to_owned`, at most five), one marked verified, and written back
//!   with `set_creators`;
//! - `set_uri`: `set_uri`, which moves every field after the uri within
//!   the account; the program zeroes what a shorter uri frees (zeropod
//!   leaves those bytes as they were).
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use common::{
    Address, ProgramError, ProgramResult, invalid_account_data,
    metadata::{
        Creator, FixedFirst, FixedFirstView, Format, KeyRef, check_authority, check_new_uri,
    },
};
use zeropod::Layout;

/// The key must be `MetadataV1`.
fn metadata_v1(view: &FixedFirstView) -> ProgramResult {
    match view.key() {
        KeyRef::MetadataV1 => Ok(()),
        _ => Err(ProgramError::InvalidAccountData),
    }
}

fn view(data: &[u8]) -> Result<&FixedFirstView, ProgramError> {
    let view = FixedFirst::view(data).map_err(invalid_account_data)?;
    metadata_v1(view)?;
    Ok(view)
}

fn view_mut(data: &mut [u8]) -> Result<&mut FixedFirstView, ProgramError> {
    let view = FixedFirst::view_mut(data).map_err(invalid_account_data)?;
    metadata_v1(view)?;
    Ok(view)
}

struct Zeropod;

impl Format for Zeropod {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let view = view_mut(data)?;
        check_authority(view.update_authority(), authority)?;
        view.set_primary_sale_happened(true)
            .map_err(invalid_account_data)
    }

    fn read_collection(data: &[u8], key: &[u8; 32]) -> ProgramResult {
        match view(data)?.collection() {
            Some(c) if c.verified() && **c.key() == *key => Ok(()),
            _ => Err(ProgramError::InvalidArgument),
        }
    }

    fn verify_creator(data: &mut [u8], creator: &Address) -> ProgramResult {
        let view = view_mut(data)?;
        let mut creators: Vec<Creator> = view
            .creators()
            .map(|c| c.iter().map(|c| c.to_owned()).collect())
            .unwrap_or_default();
        let found = creators
            .iter_mut()
            .find(|c| &c.address == creator.as_array())
            .ok_or(ProgramError::InvalidArgument)?;
        found.verified = true;
        view.set_creators(Some(&creators))
            .map_err(invalid_account_data)
    }

    fn read_royalty(data: &[u8], bps: u16) -> ProgramResult {
        if view(data)?.seller_fee_basis_points() == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn set_uri(data: &mut [u8], authority: &Address, uri: &[u8]) -> ProgramResult {
        let view = view_mut(data)?;
        check_authority(view.update_authority(), authority)?;
        let uri = check_new_uri(view.is_mutable(), uri)?;
        let old = view.size();
        view.set_uri(uri).map_err(invalid_account_data)?;
        let new = view.size();
        if let Some(freed) = data.get_mut(new..old) {
            freed.fill(0);
        }
        Ok(())
    }
}

common::metadata_program!(Zeropod);
