//! light-zero-copy over borsh's layout (the same bytes as the `borsh`
//! program): its derive reads `Message` in place. `zero_copy_at` checks
//! every length against the data and returns the unread rest, which must be
//! empty (the contract refuses trailing bytes); the key list is a slice of
//! the data, each instruction's accounts and data too; only the list of
//! instruction views is allocated. Every operation takes that checked read
//! of the whole message first, so every one validates it all:
//! - `read_blockhash`, `sanitize`, `read_instruction`: `zero_copy_at`.
//! - `full`: `zero_copy_at_mut`, and the nonce is bumped in place.
//! - `push_key`: the crate has no way to grow a list, so after the checked
//!   read the account grows by 32 bytes, everything after the keys moves up,
//!   and the new key and borsh's `u32` key count are written by hand.
//!
//! No alignment is required: the derived views are unaligned (`u64`s as
//! zerocopy's little-endian `U64`).
#![no_std]

use common::{
    AccountView, Address, ProgramError, ProgramResult, invalid_account_data,
    message::{
        Format, MAX_KEYS, Message, Record, ZMessage, check_authority, check_equal,
        read_instruction, sanitize,
    },
    pinocchio::Resize,
};
use light_zero_copy::traits::{ZeroCopyAt, ZeroCopyAtMut};

/// Where borsh puts the key count: after `authority` and `nonce`.
const KEY_COUNT_AT: usize = 32 + 8;
/// Where the keys start, after their `u32` count.
const KEYS_AT: usize = KEY_COUNT_AT + 4;

/// The checked read of the whole message: nothing may follow it.
fn view(data: &[u8]) -> Result<ZMessage<'_>, ProgramError> {
    match Message::zero_copy_at(data) {
        Ok((message, [])) => Ok(message),
        _ => Err(ProgramError::InvalidAccountData),
    }
}

struct LightZeroCopy;

impl Format for LightZeroCopy {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let (mut message, rest) = Message::zero_copy_at_mut(data).map_err(invalid_account_data)?;
        if !rest.is_empty() {
            return Err(ProgramError::InvalidAccountData);
        }
        check_authority(&message.authority, authority)?;
        message.nonce = u64::from(message.nonce).wrapping_add(1).into();
        Ok(())
    }

    fn read_blockhash(data: &[u8], hash: &[u8; 32]) -> ProgramResult {
        check_equal(view(data)?.recent_blockhash(), hash)
    }

    fn sanitize(data: &[u8]) -> ProgramResult {
        sanitize(&view(data)?)
    }

    fn read_instruction(data: &[u8], index: u16, expected: &[u8]) -> ProgramResult {
        read_instruction(&view(data)?, index, expected)
    }

    fn push_key(account: &mut AccountView, key: &Address) -> ProgramResult {
        let (keys_end, len, count) = {
            let data = account.try_borrow()?;
            let message = view(&data)?;
            check_authority(&message.authority, key)?;
            let count = message.account_keys.len();
            if count >= MAX_KEYS {
                return Err(ProgramError::InvalidArgument);
            }
            (KEYS_AT + 32 * count, data.len(), count)
        };
        account.resize(len + 32)?;
        let mut data = account.try_borrow_mut()?;
        data.copy_within(keys_end..len, keys_end + 32);
        data[keys_end..keys_end + 32].copy_from_slice(key.as_array());
        data[KEY_COUNT_AT..KEYS_AT].copy_from_slice(&(count as u32 + 1).to_le_bytes());
        Ok(())
    }
}

common::message_program!(LightZeroCopy);
