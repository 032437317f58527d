//! The out-of-band layout of a message: a fixed [`Header`] (the blockhash
//! included), the keys as one `[[u8; 32]]`, a table of fixed-size
//! [`Entry`]s, then the variable bytes (each instruction's accounts, then
//! its data). Every element is one lookup away; nothing is re-parsed to
//! reach it. Integers are little-endian (the SVM's and the host's order).
//!
//! ```text
//! Header (80) | keys (32 * key_count) | entries (8 * instruction_count) | bytes
//! ```
//!
//! An entry's `offset` counts from the start of the variable bytes, so
//! growing the key list moves no offset. A valid encoding has the header's
//! reserved bytes zero and lays the instructions out in order,
//! contiguously, ending exactly at the end of the data.

use core::{marker::PhantomData, mem::size_of};

use pinocchio::{AccountView, Address, ProgramResult, Resize, error::ProgramError};

use super::{Format, MAX_KEYS, check_authority, check_equal, check_indices};

#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "zerocopy_layout",
    derive(
        zerocopy::FromBytes,
        zerocopy::IntoBytes,
        zerocopy::KnownLayout,
        zerocopy::Immutable
    )
)]
pub struct Header {
    pub authority: [u8; 32],
    pub nonce: u64,
    pub recent_blockhash: [u8; 32],
    pub key_count: u16,
    pub instruction_count: u16,
    pub reserved: [u8; 4],
}

/// One instruction: where its bytes are, and its program index.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "zerocopy_layout",
    derive(
        zerocopy::FromBytes,
        zerocopy::IntoBytes,
        zerocopy::KnownLayout,
        zerocopy::Immutable
    )
)]
pub struct Entry {
    /// From the start of the variable bytes: `accounts`, then `data`.
    pub offset: u32,
    pub data_len: u16,
    pub program_id_index: u8,
    pub accounts_len: u8,
}

pub const HEADER_LEN: usize = size_of::<Header>();
pub const ENTRY_LEN: usize = size_of::<Entry>();

const _: () = {
    assert!(HEADER_LEN == 80 && ENTRY_LEN == 8);
    // The keys end on a multiple of 32 bytes after an 8-byte-aligned
    // header, so the entries are 4-byte aligned in 8-byte-aligned data.
    assert!(HEADER_LEN.is_multiple_of(8) && 32usize.is_multiple_of(core::mem::align_of::<Entry>()));
};

/// Every part of a message, each checked to lie within the data.
pub struct Parts<'a> {
    pub header: &'a Header,
    pub keys: &'a [[u8; 32]],
    pub entries: &'a [Entry],
    /// The variable bytes: everything after the entries.
    pub bytes: &'a [u8],
}

impl<'a> Parts<'a> {
    /// Instruction `entry`'s accounts and data, checked to lie within the
    /// variable bytes.
    #[inline(always)]
    pub fn instruction(&self, entry: &Entry) -> Result<(&'a [u8], &'a [u8]), ProgramError> {
        let start = entry.offset as usize;
        let accounts_end = start + entry.accounts_len as usize;
        let end = accounts_end + entry.data_len as usize;
        let bytes = self
            .bytes
            .get(start..end)
            .ok_or(ProgramError::InvalidAccountData)?;
        Ok(bytes.split_at(entry.accounts_len as usize))
    }

    /// The whole message: the reserved header bytes zero, every instruction
    /// in order, contiguous, ending at the end of the data.
    #[inline(always)]
    pub fn validate(&self) -> ProgramResult {
        if self.header.reserved != [0; 4] {
            return Err(ProgramError::InvalidAccountData);
        }
        let mut next = 0usize;
        for entry in self.entries {
            if entry.offset as usize != next {
                return Err(ProgramError::InvalidAccountData);
            }
            next += entry.accounts_len as usize + entry.data_len as usize;
        }
        if next == self.bytes.len() {
            Ok(())
        } else {
            Err(ProgramError::InvalidAccountData)
        }
    }
}

/// How a program reaches the parts: by hand or through a crate. Each
/// refuses, with `InvalidAccountData`, data too short for what it returns.
pub trait Table {
    fn header(data: &[u8]) -> Result<&Header, ProgramError>;
    fn header_mut(data: &mut [u8]) -> Result<&mut Header, ProgramError>;
    fn parts(data: &[u8]) -> Result<Parts<'_>, ProgramError>;
}

/// The five operations on the layout, through a [`Table`]:
/// - `full`: every part and entry validated ([`Parts::validate`]), then the
///   nonce written in place;
/// - `read_blockhash`: the header only; nothing after it is read or checked;
/// - `sanitize`: every entry's accounts, range-checked and index-checked;
///   the data bytes are range-checked, not read;
/// - `read_instruction`: the header, the table's bounds and entry `i`;
/// - `push_key`: validated as `full`, then the entries and bytes move 32
///   bytes up and the key goes in after the last one.
pub struct OffsetTable<T>(PhantomData<T>);

impl<T: Table> Format for OffsetTable<T> {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult {
        let parts = T::parts(data)?;
        parts.validate()?;
        check_authority(&parts.header.authority, authority)?;
        let header = T::header_mut(data)?;
        header.nonce = header.nonce.wrapping_add(1);
        Ok(())
    }

    fn read_blockhash(data: &[u8], hash: &[u8; 32]) -> ProgramResult {
        check_equal(&T::header(data)?.recent_blockhash, hash)
    }

    fn sanitize(data: &[u8]) -> ProgramResult {
        let parts = T::parts(data)?;
        let keys = parts.keys.len();
        parts.entries.iter().try_for_each(|entry| {
            let (accounts, _) = parts.instruction(entry)?;
            check_indices(keys, entry.program_id_index, accounts)
        })
    }

    fn read_instruction(data: &[u8], index: u16, expected: &[u8]) -> ProgramResult {
        let parts = T::parts(data)?;
        let entry = parts
            .entries
            .get(index as usize)
            .ok_or(ProgramError::InvalidArgument)?;
        let (_, found) = parts.instruction(entry)?;
        check_equal(found, expected)
    }

    fn push_key(account: &mut AccountView, key: &Address) -> ProgramResult {
        let (keys_end, len) = {
            let data = account.try_borrow()?;
            let parts = T::parts(&data)?;
            parts.validate()?;
            check_authority(&parts.header.authority, key)?;
            if parts.keys.len() >= MAX_KEYS {
                return Err(ProgramError::InvalidArgument);
            }
            (HEADER_LEN + 32 * parts.keys.len(), data.len())
        };
        account.resize(len + 32)?;
        let mut data = account.try_borrow_mut()?;
        data.copy_within(keys_end..len, keys_end + 32);
        data[keys_end..keys_end + 32].copy_from_slice(key.as_array());
        T::header_mut(&mut data)?.key_count += 1;
        Ok(())
    }
}

/// The host encoder: the layout of `message`.
#[cfg(feature = "host")]
pub fn encode(message: &super::Message) -> alloc::vec::Vec<u8> {
    let mut out = alloc::vec::Vec::new();
    out.extend(message.authority);
    out.extend(message.nonce.to_le_bytes());
    out.extend(message.recent_blockhash);
    out.extend((message.account_keys.len() as u16).to_le_bytes());
    out.extend((message.instructions.len() as u16).to_le_bytes());
    out.extend([0; 4]);
    out.extend(message.account_keys.iter().flatten());
    let mut offset = 0u32;
    for ix in &message.instructions {
        out.extend(offset.to_le_bytes());
        out.extend((ix.data.len() as u16).to_le_bytes());
        out.push(ix.program_id_index);
        out.push(ix.accounts.len() as u8);
        offset += (ix.accounts.len() + ix.data.len()) as u32;
    }
    for ix in &message.instructions {
        out.extend(&ix.accounts);
        out.extend(&ix.data);
    }
    out
}

/// The host decoder: `None` unless `bytes` is exactly one valid encoding.
#[cfg(feature = "host")]
pub fn decode(bytes: &[u8]) -> Option<super::Message> {
    use super::{Instruction, Message};
    let u16_at = |at: usize| Some(u16::from_le_bytes(bytes.get(at..at + 2)?.try_into().ok()?));
    let header = bytes.get(..HEADER_LEN)?;
    if header[76..] != [0; 4] {
        return None;
    }
    let key_count = u16_at(72)? as usize;
    let instruction_count = u16_at(74)? as usize;
    let keys_end = HEADER_LEN + 32 * key_count;
    let entries_end = keys_end + ENTRY_LEN * instruction_count;
    let variable = bytes.get(entries_end..)?;
    let mut next = 0usize;
    let mut instructions = alloc::vec::Vec::new();
    for entry in bytes.get(keys_end..entries_end)?.as_chunks::<ENTRY_LEN>().0 {
        let offset = u32::from_le_bytes(entry[..4].try_into().ok()?) as usize;
        let data_len = u16::from_le_bytes(entry[4..6].try_into().ok()?) as usize;
        let accounts_len = entry[7] as usize;
        if offset != next {
            return None;
        }
        next += accounts_len + data_len;
        let ix = variable.get(offset..next)?;
        instructions.push(Instruction {
            program_id_index: entry[6],
            accounts: ix[..accounts_len].to_vec(),
            data: ix[accounts_len..].to_vec(),
        });
    }
    (next == variable.len()).then(|| Message {
        authority: header[..32].try_into().unwrap(),
        nonce: u64::from_le_bytes(header[32..40].try_into().unwrap()),
        recent_blockhash: header[40..72].try_into().unwrap(),
        account_keys: bytes[HEADER_LEN..keys_end].as_chunks::<32>().0.to_vec(),
        instructions,
    })
}
