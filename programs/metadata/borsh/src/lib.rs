//! borsh, as Anchor 1.x reads an `Account<T>` after its discriminator:
//! `BorshDeserialize::deserialize` over the account's data (the record at
//! its start, the zeros after it not read), then `serialize` back for the
//! writing operations. Every operation is an owned decode of the whole
//! record (`Owned`), so every operation validates the whole record: UTF-8
//! of every string, every bool, option and enum tag.
//!
//! borsh allocates `min(len, 1 MiB)` bytes for a string before reading it,
//! and its API has no limit to set: a corrupt string length above the
//! 32 KiB heap aborts the program out of memory rather than returning
//! `InvalidAccountData` (no account changes either way). See the README.
#![no_std]

use borsh::{BorshDeserialize, BorshSerialize};
use common::{
    ProgramError, invalid_account_data,
    metadata::{Codec, Metadata, Owned},
};

struct Borsh;

impl Codec for Borsh {
    fn decode(data: &[u8]) -> Result<(Metadata, usize), ProgramError> {
        let mut rest = data;
        let record = Metadata::deserialize(&mut rest).map_err(invalid_account_data)?;
        Ok((record, data.len() - rest.len()))
    }

    fn encode(record: &Metadata, data: &mut [u8]) -> Result<usize, ProgramError> {
        let len = data.len();
        let mut rest = &mut data[..];
        record.serialize(&mut rest).map_err(invalid_account_data)?;
        Ok(len - rest.len())
    }

    fn encoded_len(record: &Metadata) -> Result<usize, ProgramError> {
        borsh::object_length(record).map_err(invalid_account_data)
    }
}

common::metadata_program!(Owned<Borsh>);
