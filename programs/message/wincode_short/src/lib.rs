//! wincode with Solana's compact-u16 length prefixes (`solana-short-vec`'s
//! `ShortU16` in `containers::Vec`): the encoding of transaction messages.
//! Every operation is an owned decode of the whole `ShortMessage`
//! (`Owned`) with `deserialize_exact`, which validates every prefix
//! (`ShortU16` refuses non-minimal encodings) and refuses trailing bytes;
//! `full` and `push_key` encode with `serialize_into`, and `push_key` sizes
//! the account with `serialized_size` (the key count's prefix grows from
//! one byte to two at 128 keys). All through `wincode::config` with
//! preallocation capped at 16 KiB, so that a corrupt length prefix is an
//! error rather than an out-of-memory abort.
#![no_std]

use wincode::config::Configuration;

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    message::{Codec, Owned, ShortMessage},
};

/// The default format, with preallocation capped at 16 KiB (wincode's
/// default is 4 MiB): a corrupt length prefix must be an error, not an
/// allocation the 64 KiB heap cannot hold.
const CONFIG: Configuration<true, { 16 * 1024 }> =
    Configuration::default().with_preallocation_size_limit::<{ 16 * 1024 }>();

struct WincodeShort;

impl Codec for WincodeShort {
    type Owned = ShortMessage;
    type Borrowed<'a> = ShortMessage;

    fn decode(data: &[u8]) -> Result<ShortMessage, ProgramError> {
        wincode::config::deserialize_exact(data, CONFIG).map_err(invalid_account_data)
    }

    fn decode_borrowed(data: &[u8]) -> Result<ShortMessage, ProgramError> {
        Self::decode(data)
    }

    fn encoded_len(message: &ShortMessage) -> Result<usize, ProgramError> {
        let size =
            wincode::config::serialized_size(message, CONFIG).map_err(invalid_account_data)?;
        usize::try_from(size).map_err(invalid_account_data)
    }

    fn encode(message: &ShortMessage, data: &mut [u8]) -> ProgramResult {
        wincode::config::serialize_into(data, message, CONFIG).map_err(invalid_account_data)
    }
}

common::message_program!(Owned<WincodeShort>);
