//! A hand-written zero-copy parser over Solana's inline compact-u16 layout
//! (the same bytes as `wincode_short`): the raw-cast baseline of the inline
//! layout. Length prefixes are 1-3 bytes, minimal, at most `u16::MAX`;
//! anything else is `InvalidAccountData`. Reaching anything behind a
//! variable part means parsing its prefix and skipping it:
//!
//! ```text
//! authority (32) | nonce (8) | len | keys | recent_blockhash (32) | len | instructions
//! instruction: program_id_index (1) | len | accounts | len | data
//! ```
//!
//! - `read_blockhash`: parses the key count and skips the keys; reads and
//!   checks nothing after the blockhash's instruction count.
//! - `read_instruction`: walks instructions `0..=i`, validating those.
//! - `full`, `sanitize`, `push_key`: walk and validate every instruction,
//!   and refuse trailing bytes. `full` bumps the nonce in place; `push_key`
//!   moves everything after the keys up by 32 bytes (33 when the key
//!   count's prefix grows from one byte to two) and writes the key.
#![no_std]

use common::{
    AccountView, Address, ProgramError, ProgramResult,
    message::{Format, MAX_KEYS, check_authority, check_equal, check_indices},
    pinocchio::Resize,
};

const INVALID: ProgramError = ProgramError::InvalidAccountData;
/// Where the key count's prefix starts: after the authority and the nonce.
const KEYS_PREFIX: usize = 40;

/// Reads one compact-u16 at `*at` and moves past it.
#[inline(always)]
fn compact_u16(data: &[u8], at: &mut usize) -> Result<usize, ProgramError> {
    let mut value = 0usize;
    for i in 0..3 {
        let byte = *data.get(*at + i).ok_or(INVALID)?;
        value |= ((byte & 0x7f) as usize) << (7 * i);
        if byte & 0x80 == 0 {
            // Minimal: a continued prefix never ends in a zero byte, and
            // its third byte holds the top two bits only.
            if (i > 0 && byte == 0) || (i == 2 && byte > 3) {
                return Err(INVALID);
            }
            *at += i + 1;
            return Ok(value);
        }
    }
    Err(INVALID)
}

/// Takes `len` bytes at `*at` and moves past them.
#[inline(always)]
fn take<'a>(data: &'a [u8], at: &mut usize, len: usize) -> Result<&'a [u8], ProgramError> {
    let bytes = data.get(*at..*at + len).ok_or(INVALID)?;
    *at += len;
    Ok(bytes)
}

/// The fixed part up to the instructions: where the keys are, the
/// blockhash, and the instruction count.
struct Head<'a> {
    keys_at: usize,
    key_count: usize,
    recent_blockhash: &'a [u8],
    instruction_count: usize,
    /// Where the first instruction starts.
    instructions_at: usize,
}

#[inline(always)]
fn head(data: &[u8]) -> Result<Head<'_>, ProgramError> {
    let mut at = KEYS_PREFIX;
    let key_count = compact_u16(data, &mut at)?;
    let keys_at = at;
    take(data, &mut at, 32 * key_count)?;
    let recent_blockhash = take(data, &mut at, 32)?;
    let instruction_count = compact_u16(data, &mut at)?;
    Ok(Head {
        keys_at,
        key_count,
        recent_blockhash,
        instruction_count,
        instructions_at: at,
    })
}

/// Parses the instruction at `*at`: `(program_id_index, accounts, data)`.
#[inline(always)]
fn instruction<'a>(
    data: &'a [u8],
    at: &mut usize,
) -> Result<(u8, &'a [u8], &'a [u8]), ProgramError> {
    let program_id_index = take(data, at, 1)?[0];
    let accounts_len = compact_u16(data, at)?;
    let accounts = take(data, at, accounts_len)?;
    let data_len = compact_u16(data, at)?;
    Ok((program_id_index, accounts, take(data, at, data_len)?))
}

/// Walks every instruction through `each`, then refuses trailing bytes.
#[inline(always)]
fn walk(
    data: &[u8],
    head: &Head,
    mut each: impl FnMut(u8, &[u8]) -> ProgramResult,
) -> ProgramResult {
    let mut at = head.instructions_at;
    for _ in 0..head.instruction_count {
        let (program, accounts, _) = instruction(data, &mut at)?;
        each(program, accounts)?;
    }
    if at == data.len() {
        Ok(())
    } else {
        Err(INVALID)
    }
}

#[inline(always)]
fn authority(data: &[u8]) -> Result<&[u8; 32], ProgramError> {
    data.first_chunk().ok_or(INVALID)
}

struct CompactU16;

impl Format for CompactU16 {
    fn full(data: &mut [u8], signer: &Address) -> ProgramResult {
        walk(data, &head(data)?, |_, _| Ok(()))?;
        check_authority(authority(data)?, signer)?;
        let nonce: &mut [u8; 8] = (&mut data[32..KEYS_PREFIX])
            .try_into()
            .map_err(|_| INVALID)?;
        *nonce = u64::from_le_bytes(*nonce).wrapping_add(1).to_le_bytes();
        Ok(())
    }

    fn read_blockhash(data: &[u8], hash: &[u8; 32]) -> ProgramResult {
        check_equal(head(data)?.recent_blockhash, hash)
    }

    fn sanitize(data: &[u8]) -> ProgramResult {
        let head = head(data)?;
        walk(data, &head, |program, accounts| {
            check_indices(head.key_count, program, accounts)
        })
    }

    fn read_instruction(data: &[u8], index: u16, expected: &[u8]) -> ProgramResult {
        let head = head(data)?;
        if index as usize >= head.instruction_count {
            return Err(ProgramError::InvalidArgument);
        }
        let mut at = head.instructions_at;
        for _ in 0..index {
            instruction(data, &mut at)?;
        }
        let (_, _, found) = instruction(data, &mut at)?;
        check_equal(found, expected)
    }

    fn push_key(account: &mut AccountView, key: &Address) -> ProgramResult {
        let (keys_at, key_count, len) = {
            let data = account.try_borrow()?;
            let head = head(&data)?;
            walk(&data, &head, |_, _| Ok(()))?;
            check_authority(authority(&data)?, key)?;
            if head.key_count >= MAX_KEYS {
                return Err(ProgramError::InvalidArgument);
            }
            (head.keys_at, head.key_count, data.len())
        };
        // The new count's prefix: one byte below 128, two from 128 on.
        let count = key_count + 1;
        let prefix: &[u8] = &[(count as u8 & 0x7f) | 0x80, (count >> 7) as u8];
        let prefix = if count < 0x80 {
            &[count as u8][..]
        } else {
            prefix
        };
        let grow = prefix.len() - (keys_at - KEYS_PREFIX);
        let keys_end = keys_at + 32 * key_count;
        account.resize(len + grow + 32)?;
        let mut data = account.try_borrow_mut()?;
        data.copy_within(keys_end..len, keys_end + grow + 32);
        data.copy_within(keys_at..keys_end, keys_at + grow);
        data[KEYS_PREFIX..KEYS_PREFIX + prefix.len()].copy_from_slice(prefix);
        data[keys_end + grow..keys_end + grow + 32].copy_from_slice(key.as_array());
        Ok(())
    }
}

common::message_program!(CompactU16);
