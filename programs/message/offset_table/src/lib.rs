//! The out-of-band layout (`common::message::offset_table`) read by hand:
//! the raw-cast baseline of that layout. Each part is a bounds check and a
//! pointer cast; what each operation reads and validates is
//! `OffsetTable`'s doc comment (`read_blockhash` reads the header only,
//! `full` and `push_key` validate every entry).
#![no_std]

use core::slice;

use common::{
    ProgramError,
    message::offset_table::{ENTRY_LEN, Entry, HEADER_LEN, Header, OffsetTable, Parts, Table},
};

struct ByHand;

impl Table for ByHand {
    fn header(data: &[u8]) -> Result<&Header, ProgramError> {
        if data.len() < HEADER_LEN {
            return Err(ProgramError::InvalidAccountData);
        }
        // SAFETY: `data` holds at least `size_of::<Header>()` bytes; `Header`
        // is `repr(C)` with integer and byte-array fields only (every bit
        // pattern is valid); the runtime places account data at 8-byte
        // alignment, `Header`'s alignment.
        Ok(unsafe { &*data.as_ptr().cast::<Header>() })
    }

    fn header_mut(data: &mut [u8]) -> Result<&mut Header, ProgramError> {
        if data.len() < HEADER_LEN {
            return Err(ProgramError::InvalidAccountData);
        }
        // SAFETY: as in `header`; the `&mut` borrow of `data` makes it unique.
        Ok(unsafe { &mut *data.as_mut_ptr().cast::<Header>() })
    }

    fn parts(data: &[u8]) -> Result<Parts<'_>, ProgramError> {
        let header = Self::header(data)?;
        let keys_end = HEADER_LEN + 32 * header.key_count as usize;
        let entries_end = keys_end + ENTRY_LEN * header.instruction_count as usize;
        let bytes = data
            .get(entries_end..)
            .ok_or(ProgramError::InvalidAccountData)?;
        // SAFETY: `entries_end <= data.len()` (checked above), so both slices
        // lie within `data`; `[u8; 32]` has alignment 1, and the entries
        // start 4-byte aligned (80 + 32 * n bytes into 8-byte-aligned data);
        // `Entry` is `repr(C)` with integer fields only.
        let (keys, entries) = unsafe {
            (
                slice::from_raw_parts(
                    data.as_ptr().add(HEADER_LEN).cast::<[u8; 32]>(),
                    header.key_count as usize,
                ),
                slice::from_raw_parts(
                    data.as_ptr().add(keys_end).cast::<Entry>(),
                    header.instruction_count as usize,
                ),
            )
        };
        Ok(Parts {
            header,
            keys,
            entries,
            bytes,
        })
    }
}

common::message_program!(OffsetTable<ByHand>);
