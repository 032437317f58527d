//! wincode with Solana's compact-u16 length prefixes (`solana-short-vec`'s
//! `ShortU16` in `containers::Vec`): the encoding of transaction messages.
//! Every operation is an owned decode of the whole `ShortMessage`
//! (`Owned`) with `deserialize_exact`, which validates every prefix
//! (`ShortU16` refuses non-minimal encodings) and refuses trailing bytes;
//! `full` and `push_key` encode with `serialize_into`, and `push_key` sizes
//! the account with `serialized_size` (the key count's prefix grows from
//! one byte to two at 128 keys).
#![no_std]

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    message::{Codec, Owned, ShortMessage},
};

struct WincodeShort;

impl Codec for WincodeShort {
    type Owned = ShortMessage;
    type Borrowed<'a> = ShortMessage;

    fn decode(data: &[u8]) -> Result<ShortMessage, ProgramError> {
        wincode::deserialize_exact(data).map_err(invalid_account_data)
    }

    fn decode_borrowed(data: &[u8]) -> Result<ShortMessage, ProgramError> {
        Self::decode(data)
    }

    fn encoded_len(message: &ShortMessage) -> Result<usize, ProgramError> {
        let size = wincode::serialized_size(message).map_err(invalid_account_data)?;
        usize::try_from(size).map_err(invalid_account_data)
    }

    fn encode(message: &ShortMessage, data: &mut [u8]) -> ProgramResult {
        wincode::serialize_into(data, message).map_err(invalid_account_data)
    }
}

common::message_program!(Owned<WincodeShort>);
