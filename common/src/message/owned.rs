//! The five operations for a crate that decodes the message into a value
//! (borsh, bincode, wincode, wincode_short): written once, so every such
//! crate runs the same code around its own decode and encode.

use core::marker::PhantomData;

use pinocchio::{AccountView, Address, ProgramResult, Resize, error::ProgramError};

use super::{Format, MAX_KEYS, Record, RecordMut, check_authority, check_equal, check_indices};

/// A crate's decode and encode of the whole message. A decode refuses
/// anything that is not exactly one encoded message (trailing bytes
/// included).
pub trait Codec {
    /// What the writing operations decode into.
    type Owned: RecordMut;
    /// What the reading operations decode into: `Owned`, or a type that
    /// borrows from the account data where the crate can.
    type Borrowed<'a>: Record;
    /// Whether re-encoding a decoded message may change its length without
    /// the message changing (varints: a nonce that changes width, an
    /// overlong encoding the decoder accepts). Where it may, `full` sizes
    /// the encoding before it writes; elsewhere it is the decoded length.
    const LENGTH_MAY_CHANGE: bool = false;
    fn decode(data: &[u8]) -> Result<Self::Owned, ProgramError>;
    fn decode_borrowed(data: &[u8]) -> Result<Self::Borrowed<'_>, ProgramError>;
    fn encoded_len(value: &Self::Owned) -> Result<usize, ProgramError>;
    /// Encodes into `data`, which is exactly `encoded_len` bytes.
    fn encode(value: &Self::Owned, data: &mut [u8]) -> ProgramResult;
}

/// The operations as owned decodes: every operation decodes (and so
/// validates) the whole message; the writing ones encode it back.
pub struct Owned<C>(PhantomData<C>);

impl<C: Codec> Format for Owned<C> {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let mut message = C::decode(data)?;
        check_authority(message.authority(), authority)?;
        let nonce = message.nonce_mut();
        *nonce = nonce.wrapping_add(1);
        // `full` writes the same length: refuse, before the first byte,
        // an encoding that would not be the whole account.
        if C::LENGTH_MAY_CHANGE && C::encoded_len(&message)? != data.len() {
            return Err(ProgramError::InvalidAccountData);
        }
        C::encode(&message, data)
    }

    fn read_blockhash(data: &[u8], hash: &[u8; 32]) -> ProgramResult {
        check_equal(C::decode_borrowed(data)?.recent_blockhash(), hash)
    }

    fn sanitize(data: &[u8]) -> ProgramResult {
        sanitize(&C::decode_borrowed(data)?)
    }

    fn read_instruction(data: &[u8], index: u16, expected: &[u8]) -> ProgramResult {
        read_instruction(&C::decode_borrowed(data)?, index, expected)
    }

    fn push_key(account: &mut AccountView, key: &Address) -> ProgramResult {
        let mut message = C::decode(&account.try_borrow()?)?;
        check_authority(message.authority(), key)?;
        let keys = message.account_keys_mut();
        if keys.len() >= MAX_KEYS {
            return Err(ProgramError::InvalidArgument);
        }
        keys.push(*key.as_array());
        account.resize(C::encoded_len(&message)?)?;
        C::encode(&message, &mut account.try_borrow_mut()?)
    }
}

/// `sanitize` on a decoded or borrowed message: every index of every
/// instruction below the key count.
#[inline(always)]
pub fn sanitize(message: &impl Record) -> ProgramResult {
    let keys = message.key_count();
    message.try_for_each_instruction(|program, accounts, _| check_indices(keys, program, accounts))
}

/// `read_instruction` on a decoded or borrowed message.
#[inline(always)]
pub fn read_instruction(message: &impl Record, index: u16, expected: &[u8]) -> ProgramResult {
    let (_, _, found) = message
        .instruction(index as usize)
        .ok_or(ProgramError::InvalidArgument)?;
    check_equal(found, expected)
}
