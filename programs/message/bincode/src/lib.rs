//! bincode 2 with fixed-width integers (u64 length prefixes), and a limit
//! on what a decode may claim, so that a corrupt length prefix is an error
//! rather than an allocation the heap cannot hold. Every operation is an
//! owned decode of the whole `Message` (`Owned`) with `decode_from_slice`,
//! which validates every length prefix; trailing bytes are refused by
//! comparing the bytes it read with the data length. `full` and `push_key`
//! encode with `encode_into_slice`; `push_key` sizes the account with a
//! `SizeWriter`. Every operation validates the whole message.
#![no_std]

use bincode::{
    config::{Configuration, Fixint, Limit, LittleEndian},
    enc::write::SizeWriter,
};
use common::{
    ProgramError, ProgramResult, invalid_account_data,
    message::{Codec, Message, Owned},
};

/// The most a decode may claim: the heap's 32 KiB.
const CONFIG: Configuration<LittleEndian, Fixint, Limit<32768>> = bincode::config::standard()
    .with_fixed_int_encoding()
    .with_limit::<32768>();

struct Bincode;

impl Codec for Bincode {
    type Owned = Message;
    type Borrowed<'a> = Message;

    fn decode(data: &[u8]) -> Result<Message, ProgramError> {
        match bincode::decode_from_slice(data, CONFIG) {
            Ok((message, read)) if read == data.len() => Ok(message),
            _ => Err(ProgramError::InvalidAccountData),
        }
    }

    fn decode_borrowed(data: &[u8]) -> Result<Message, ProgramError> {
        Self::decode(data)
    }

    fn encoded_len(message: &Message) -> Result<usize, ProgramError> {
        let mut size = SizeWriter::default();
        bincode::encode_into_writer(message, &mut size, CONFIG).map_err(invalid_account_data)?;
        Ok(size.bytes_written)
    }

    fn encode(message: &Message, data: &mut [u8]) -> ProgramResult {
        bincode::encode_into_slice(message, data, CONFIG).map_err(invalid_account_data)?;
        Ok(())
    }
}

common::message_program!(Owned<Bincode>);
