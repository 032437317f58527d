//! borsh (u32 length prefixes): no borrowed decode, so every operation is
//! an owned decode of the whole `Message` (`Owned`), with `try_from_slice`,
//! which validates every length prefix and refuses trailing bytes; `full`
//! and `push_key` encode it back with `to_writer`, and `push_key` sizes the
//! account with `object_length`. Every operation validates the whole
//! message, whatever it reads.
//!
//! borsh allocates `min(len, 1 MiB)` bytes for a `Vec<u8>` before reading
//! it, and its API has no limit to set: a corrupt length prefix above the
//! heap aborts the program out of memory rather than returning
//! `InvalidAccountData` (no account changes either way). See the README.
#![no_std]

use borsh::BorshDeserialize;
use common::{
    ProgramError, ProgramResult, invalid_account_data,
    message::{Codec, Message, Owned},
};

struct Borsh;

impl Codec for Borsh {
    type Owned = Message;
    type Borrowed<'a> = Message;

    fn decode(data: &[u8]) -> Result<Message, ProgramError> {
        Message::try_from_slice(data).map_err(invalid_account_data)
    }

    fn decode_borrowed(data: &[u8]) -> Result<Message, ProgramError> {
        Self::decode(data)
    }

    fn encoded_len(message: &Message) -> Result<usize, ProgramError> {
        borsh::object_length(message).map_err(invalid_account_data)
    }

    fn encode(message: &Message, data: &mut [u8]) -> ProgramResult {
        borsh::to_writer(data, message).map_err(invalid_account_data)
    }
}

common::message_program!(Owned<Borsh>);
