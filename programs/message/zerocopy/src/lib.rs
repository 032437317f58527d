//! The out-of-band layout (`common::message::offset_table`) read through
//! zerocopy's checked API instead of pointer casts: `Header` derives
//! `FromBytes` and `KnownLayout`, the header is `Header::ref_from_prefix`,
//! the keys and entries `<[T]>::ref_from_prefix_with_elems`, each checking
//! size and alignment. What each operation reads and validates is
//! `OffsetTable`'s doc comment (`read_blockhash` reads the header only,
//! `full` and `push_key` validate every entry).
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    message::offset_table::{Entry, Header, OffsetTable, Parts, Table},
};
use zerocopy::FromBytes;

struct Zerocopy;

impl Table for Zerocopy {
    fn header(data: &[u8]) -> Result<&Header, ProgramError> {
        let (header, _rest) = Header::ref_from_prefix(data).map_err(invalid_account_data)?;
        Ok(header)
    }

    fn header_mut(data: &mut [u8]) -> Result<&mut Header, ProgramError> {
        let (header, _rest) = Header::mut_from_prefix(data).map_err(invalid_account_data)?;
        Ok(header)
    }

    fn parts(data: &[u8]) -> Result<Parts<'_>, ProgramError> {
        let (header, rest) = Header::ref_from_prefix(data).map_err(invalid_account_data)?;
        let (keys, rest) =
            <[[u8; 32]]>::ref_from_prefix_with_elems(rest, header.key_count as usize)
                .map_err(invalid_account_data)?;
        let (entries, bytes) =
            <[Entry]>::ref_from_prefix_with_elems(rest, header.instruction_count as usize)
                .map_err(invalid_account_data)?;
        Ok(Parts {
            header,
            keys,
            entries,
            bytes,
        })
    }
}

common::message_program!(OffsetTable<Zerocopy>);
