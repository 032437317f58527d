//! postcard (varint integers). By value: `from_bytes::<[Account; N]>`,
//! the array on the stack, then `to_slice`. Off the stack: each `Account`
//! taken in turn (`take_from_bytes`) into a `Vec` of capacity `N`, and
//! written back in turn.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    stack::{Account, N, Sweep, bump_last},
};

struct Postcard;

impl Sweep for Postcard {
    fn by_value(data: &mut [u8]) -> ProgramResult {
        let mut accounts: [Account; N] =
            postcard::from_bytes(data).map_err(invalid_account_data)?;
        bump_last(&mut accounts)?;
        postcard::to_slice(&accounts, data).map_err(invalid_account_data)?;
        Ok(())
    }

    fn off_stack(data: &mut [u8]) -> ProgramResult {
        let mut accounts = Vec::with_capacity(N);
        let mut rest: &[u8] = data;
        for _ in 0..N {
            let (account, tail) =
                postcard::take_from_bytes::<Account>(rest).map_err(invalid_account_data)?;
            accounts.push(account);
            rest = tail;
        }
        bump_last(&mut accounts)?;
        let mut at = 0;
        for account in &accounts {
            let rest = data.get_mut(at..).ok_or(ProgramError::InvalidAccountData)?;
            at += postcard::to_slice(account, rest)
                .map_err(invalid_account_data)?
                .len();
        }
        Ok(())
    }
}

common::stack_program!(Postcard);
