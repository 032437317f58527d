//! wincode (its default format: `Account` is 160 bytes). By value:
//! `deserialize::<[Account; N]>`, the array on the stack, then
//! `serialize_into`. Off the stack: each `Account` deserialized in turn
//! into a `Vec` of capacity `N`, and serialized back in turn.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    stack::{Account, N, Sweep, bump_last},
};

struct Wincode;

impl Sweep for Wincode {
    fn by_value(data: &mut [u8]) -> ProgramResult {
        let mut accounts: [Account; N] =
            wincode::deserialize(data).map_err(invalid_account_data)?;
        bump_last(&mut accounts)?;
        wincode::serialize_into(data, &accounts).map_err(invalid_account_data)
    }

    fn off_stack(data: &mut [u8]) -> ProgramResult {
        let mut accounts = Vec::with_capacity(N);
        for chunk in data.chunks(Account::LEN).take(N) {
            accounts.push(wincode::deserialize::<Account>(chunk).map_err(invalid_account_data)?);
        }
        if accounts.len() < N {
            return Err(ProgramError::InvalidAccountData);
        }
        bump_last(&mut accounts)?;
        for (chunk, account) in data.chunks_mut(Account::LEN).zip(&accounts) {
            wincode::serialize_into(chunk, account).map_err(invalid_account_data)?;
        }
        Ok(())
    }
}

common::stack_program!(Wincode);
