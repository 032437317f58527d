//! bincode 2 (fixed-width integers, `common::BINCODE`). By value:
//! `decode_from_slice::<[Account; N]>`, the array on the stack, then
//! `encode_into_slice`. Off the stack: each `Account` decoded in turn into
//! a `Vec` of capacity `N`, and encoded back in turn.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use common::{
    BINCODE, ProgramError, ProgramResult, invalid_account_data,
    stack::{Account, N, Sweep, bump_last},
};

struct Bincode;

impl Sweep for Bincode {
    fn by_value(data: &mut [u8]) -> ProgramResult {
        let (mut accounts, _): ([Account; N], usize) =
            bincode::decode_from_slice(data, BINCODE).map_err(invalid_account_data)?;
        bump_last(&mut accounts)?;
        bincode::encode_into_slice(accounts, data, BINCODE).map_err(invalid_account_data)?;
        Ok(())
    }

    fn off_stack(data: &mut [u8]) -> ProgramResult {
        let mut accounts = Vec::with_capacity(N);
        let mut at = 0;
        for _ in 0..N {
            let rest = data.get(at..).ok_or(ProgramError::InvalidAccountData)?;
            let (account, len): (Account, usize) =
                bincode::decode_from_slice(rest, BINCODE).map_err(invalid_account_data)?;
            accounts.push(account);
            at += len;
        }
        bump_last(&mut accounts)?;
        let mut at = 0;
        for account in &accounts {
            let rest = data.get_mut(at..).ok_or(ProgramError::InvalidAccountData)?;
            at +=
                bincode::encode_into_slice(account, rest, BINCODE).map_err(invalid_account_data)?;
        }
        Ok(())
    }
}

common::stack_program!(Bincode);
