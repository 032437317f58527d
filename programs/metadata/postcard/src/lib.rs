//! postcard (serde; varint lengths, tags and integers): `take_from_bytes`,
//! which returns what follows the record, and `to_slice`. Every operation
//! is an owned decode of the whole record (`Owned`), so every operation
//! validates the whole record.
//!
//! serde's `Vec` preallocates up to 1 MiB from a claimed count: a corrupt
//! creator count aborts the program out of memory rather than returning
//! `InvalidAccountData` (no account changes either way). See the README.
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    metadata::{Codec, Metadata, Owned},
};

struct Postcard;

impl Codec for Postcard {
    fn decode(data: &[u8]) -> Result<(Metadata, usize), ProgramError> {
        let (record, rest) =
            postcard::take_from_bytes::<Metadata>(data).map_err(invalid_account_data)?;
        Ok((record, data.len() - rest.len()))
    }

    fn encode(record: &Metadata, data: &mut [u8]) -> Result<usize, ProgramError> {
        postcard::to_slice(record, data)
            .map(|written| written.len())
            .map_err(invalid_account_data)
    }

    fn encoded_len(record: &Metadata) -> Result<usize, ProgramError> {
        postcard::experimental::serialized_size(record).map_err(invalid_account_data)
    }
}

common::metadata_program!(Owned<Postcard>);
