//! wincode writing borsh's bytes (`common::metadata::WINCODE_BORSH`: `u32`
//! counts, `u8` tags), as Anchor 2's `BorshAccount<T>` does: owned decode
//! with `deserialize_from` (which leaves the zeros after the record
//! unread), `serialize_into` back. Every operation decodes, and so
//! validates, the whole record (`Owned`). Preallocation is capped at 4 KiB,
//! so a corrupt count is an error, not an allocation.
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    metadata::{Codec, Metadata, Owned, WINCODE_BORSH},
};

struct Wincode;

impl Codec for Wincode {
    fn decode(data: &[u8]) -> Result<(Metadata, usize), ProgramError> {
        let mut rest = data;
        let record = wincode::config::deserialize_from(&mut rest, WINCODE_BORSH)
            .map_err(invalid_account_data)?;
        Ok((record, data.len() - rest.len()))
    }

    fn encode(record: &Metadata, data: &mut [u8]) -> Result<usize, ProgramError> {
        let len = data.len();
        let mut rest = &mut data[..];
        wincode::config::serialize_into(&mut rest, record, WINCODE_BORSH)
            .map_err(invalid_account_data)?;
        Ok(len - rest.len())
    }

    fn encoded_len(record: &Metadata) -> Result<usize, ProgramError> {
        let len = wincode::config::serialized_size(record, WINCODE_BORSH)
            .map_err(invalid_account_data)?;
        usize::try_from(len).map_err(invalid_account_data)
    }
}

common::metadata_program!(Owned<Wincode>);
