//! postcard (serde; LEB128 varint lengths and integers): no borrowed
//! decode of `Vec<[u8; 32]>` through serde, so every operation is an owned
//! decode of the whole `Message` (`Owned`) with `take_from_bytes`, which
//! validates every length and varint and returns the unread rest: anything
//! left over is refused, as the contract wants (`from_bytes` would accept
//! trailing bytes). `full` and `push_key` encode it back with `to_slice`,
//! and `push_key` sizes the account with `experimental::serialized_size` (a
//! `Size` flavor; not behind a feature). Every
//! operation validates the whole message, whatever it reads. Nothing is
//! read in place, so alignment does not matter; no `unsafe`.
//!
//! postcard preallocates a `Vec` for the length it reads when the rest of
//! the data is at least that many bytes (serde caps it at 1 MiB): a corrupt
//! length of a few thousand instructions or keys asks for more than the
//! 64 KiB heap, and the program aborts out of memory rather than returning
//! `InvalidAccountData` (no account changes either way). See the README.
//!
//! `full` writes the same length (the contract): postcard reads overlong
//! varints, so an account may hold a valid encoding longer than the
//! canonical one `to_slice` writes, and the nonce's varint may change width
//! (127 -> 128). So its encoding's length may differ from the bytes it was
//! decoded from (`LENGTH_MAY_CHANGE`): `full` sizes it with
//! `serialized_size` first and, where it is not the whole account, refuses
//! with `InvalidAccountData` before writing a byte, rather than leave a
//! stale tail no decode accepts or a part of the new encoding. `push_key`
//! sizes the account to the canonical encoding, so its result is always
//! whole.
#![no_std]

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    message::{Codec, Message, Owned},
};

struct Postcard;

impl Codec for Postcard {
    type Owned = Message;
    type Borrowed<'a> = Message;
    const LENGTH_MAY_CHANGE: bool = true;

    fn decode(data: &[u8]) -> Result<Message, ProgramError> {
        match postcard::take_from_bytes(data) {
            Ok((message, [])) => Ok(message),
            _ => Err(ProgramError::InvalidAccountData),
        }
    }

    fn decode_borrowed(data: &[u8]) -> Result<Message, ProgramError> {
        Self::decode(data)
    }

    fn encoded_len(message: &Message) -> Result<usize, ProgramError> {
        postcard::experimental::serialized_size(message).map_err(invalid_account_data)
    }

    fn encode(message: &Message, data: &mut [u8]) -> ProgramResult {
        postcard::to_slice(message, data).map_err(invalid_account_data)?;
        Ok(())
    }
}

common::message_program!(Owned<Postcard>);
