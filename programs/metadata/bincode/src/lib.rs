//! bincode 2 with fixed-width integers (`common::BINCODE`, its own bytes:
//! `u64` lengths, `u32` enum tags): `decode_from_slice`, which returns how
//! much it read, and `encode_into_slice`. Every operation is an owned
//! decode of the whole record (`Owned`), so every operation validates the
//! whole record. The configuration's 32 KiB limit makes a corrupt length an
//! error, not an allocation.
#![no_std]

use bincode::enc::write::SizeWriter;
use common::{
    BINCODE, ProgramError, invalid_account_data,
    metadata::{Codec, Metadata, Owned},
};

struct Bincode;

impl Codec for Bincode {
    fn decode(data: &[u8]) -> Result<(Metadata, usize), ProgramError> {
        bincode::decode_from_slice(data, BINCODE).map_err(invalid_account_data)
    }

    fn encode(record: &Metadata, data: &mut [u8]) -> Result<usize, ProgramError> {
        bincode::encode_into_slice(record, data, BINCODE).map_err(invalid_account_data)
    }

    fn encoded_len(record: &Metadata) -> Result<usize, ProgramError> {
        let mut size = SizeWriter::default();
        bincode::encode_into_writer(record, &mut size, BINCODE).map_err(invalid_account_data)?;
        Ok(size.bytes_written)
    }
}

common::metadata_program!(Owned<Bincode>);
