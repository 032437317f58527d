//! rkyv: `Message`'s archived form (`ArchivedMessage`: relative pointers
//! to the keys and instructions, the root at the end of the data), read in
//! place through the checked API, which validates the whole archive
//! (bounds, alignment, every relative pointer and length, through
//! bytecheck) before anything is read:
//! - `read_blockhash`, `sanitize`, `read_instruction`: `access`; keys,
//!   accounts and data are slices of the account data, nothing is
//!   allocated.
//! - `full`: `access_mut`, and the nonce is bumped in place through the
//!   `Seal` (`munge`).
//! - `push_key`: `access`, the checks, then `deserialize` into a `Message`,
//!   push, `to_bytes`, and the account resized to the new archive and
//!   overwritten: appending to an archived list moves the root and every
//!   relative pointer, so rkyv re-serializes. The result is the canonical
//!   archive: on an account whose archive held unused bytes (the validator
//!   accepts them) it grows by less than one key, or not at all.
//!
//! Every operation validates the whole message. Errors are
//! `rancor::Failure` (carries nothing, allocates nothing).
//!
//! Alignment: the root must sit at an 8-byte boundary (`ArchivedMessage`
//! holds a `u64`), counted from the start of the data. `to_bytes` pads so it
//! does, and the runtime places account data at 8-byte alignment, so the
//! check passes; data at another alignment, or cut to a length that moves
//! the root off the boundary, is refused, not misread. rkyv also offers
//! `access_unchecked` (`unsafe`, no validation): not taken here, since
//! account data is untrusted input (the README measures what it would
//! save).
#![no_std]

use common::{
    AccountView, Address, ProgramError, ProgramResult, invalid_account_data,
    message::{
        ArchivedMessage, Format, MAX_KEYS, Message, Record, check_authority, check_equal,
        read_instruction, sanitize,
    },
    pinocchio::Resize,
};
use rkyv::{munge::munge, rancor::Failure};

/// The checked read of the whole archive.
fn view(data: &[u8]) -> Result<&ArchivedMessage, ProgramError> {
    rkyv::access::<ArchivedMessage, Failure>(data).map_err(invalid_account_data)
}

struct Rkyv;

impl Format for Rkyv {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let message =
            rkyv::access_mut::<ArchivedMessage, Failure>(data).map_err(invalid_account_data)?;
        check_authority(&message.authority, authority)?;
        munge!(let ArchivedMessage { mut nonce, .. } = message);
        *nonce = nonce.to_native().wrapping_add(1).into();
        Ok(())
    }

    fn read_blockhash(data: &[u8], hash: &[u8; 32]) -> ProgramResult {
        check_equal(view(data)?.recent_blockhash(), hash)
    }

    fn sanitize(data: &[u8]) -> ProgramResult {
        sanitize(view(data)?)
    }

    fn read_instruction(data: &[u8], index: u16, expected: &[u8]) -> ProgramResult {
        read_instruction(view(data)?, index, expected)
    }

    fn push_key(account: &mut AccountView, key: &Address) -> ProgramResult {
        let bytes = {
            let data = account.try_borrow()?;
            let archived = view(&data)?;
            check_authority(&archived.authority, key)?;
            if archived.account_keys.len() >= MAX_KEYS {
                return Err(ProgramError::InvalidArgument);
            }
            let mut message: Message =
                rkyv::deserialize::<Message, Failure>(archived).map_err(invalid_account_data)?;
            message.account_keys.push(*key.as_array());
            rkyv::to_bytes::<Failure>(&message).map_err(invalid_account_data)?
        };
        account.resize(bytes.len())?;
        account.try_borrow_mut()?.copy_from_slice(&bytes);
        Ok(())
    }
}

common::message_program!(Rkyv);
