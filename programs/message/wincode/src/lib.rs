//! wincode, default format (u64 length prefixes: the same bytes as bincode
//! with fixed-width integers). `Owned`:
//! - `read_blockhash`, `sanitize`, `read_instruction`: its borrowed decode,
//!   `deserialize_exact::<MessageRef>`: keys, accounts and data are slices
//!   of the account data (`&[[u8; 32]]`, `&[u8]`); only the instruction
//!   list is allocated. It validates every length prefix and refuses
//!   trailing bytes, so these too validate the whole message.
//! - `full`, `push_key`: the owned decode `deserialize_exact::<Message>`,
//!   then `serialize_into`; `push_key` sizes the account with
//!   `serialized_size`.
//!
//! All through `wincode::config` with preallocation capped at 16 KiB:
//! with wincode's default (4 MiB), a corrupt length prefix aborts the
//! program out of memory instead of returning an error.
#![no_std]

use wincode::config::Configuration;

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    message::{Codec, Message, MessageRef, Owned},
};

/// The default format, with preallocation capped at 16 KiB (wincode's
/// default is 4 MiB): a corrupt length prefix must be an error, not an
/// allocation the 64 KiB heap cannot hold.
const CONFIG: Configuration<true, { 16 * 1024 }> =
    Configuration::default().with_preallocation_size_limit::<{ 16 * 1024 }>();

struct Wincode;

impl Codec for Wincode {
    type Owned = Message;
    type Borrowed<'a> = MessageRef<'a>;

    fn decode(data: &[u8]) -> Result<Message, ProgramError> {
        wincode::config::deserialize_exact(data, CONFIG).map_err(invalid_account_data)
    }

    fn decode_borrowed(data: &[u8]) -> Result<MessageRef<'_>, ProgramError> {
        wincode::config::deserialize_exact(data, CONFIG).map_err(invalid_account_data)
    }

    fn encoded_len(message: &Message) -> Result<usize, ProgramError> {
        let size =
            wincode::config::serialized_size(message, CONFIG).map_err(invalid_account_data)?;
        usize::try_from(size).map_err(invalid_account_data)
    }

    fn encode(message: &Message, data: &mut [u8]) -> ProgramResult {
        wincode::config::serialize_into(data, message, CONFIG).map_err(invalid_account_data)
    }
}

common::message_program!(Owned<Wincode>);
