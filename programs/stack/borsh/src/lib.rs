//! borsh. By value: `<[Account; N]>::deserialize`, the array built on the
//! stack, then `serialize`. Off the stack: each `Account` deserialized in
//! turn into a `Vec` of capacity `N` (borsh's `Box<[Account; N]>` would
//! build the array on the stack first and then move it).
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use borsh::{BorshDeserialize, BorshSerialize};
use common::{
    ProgramResult, invalid_account_data,
    stack::{Account, N, Sweep, bump_last},
};

struct Borsh;

impl Sweep for Borsh {
    fn by_value(data: &mut [u8]) -> ProgramResult {
        let mut accounts =
            <[Account; N]>::deserialize(&mut &data[..]).map_err(invalid_account_data)?;
        bump_last(&mut accounts)?;
        accounts
            .serialize(&mut &mut data[..])
            .map_err(invalid_account_data)
    }

    fn off_stack(data: &mut [u8]) -> ProgramResult {
        let mut reader = &data[..];
        let mut accounts = Vec::with_capacity(N);
        for _ in 0..N {
            accounts.push(Account::deserialize(&mut reader).map_err(invalid_account_data)?);
        }
        bump_last(&mut accounts)?;
        let mut writer = &mut data[..];
        for account in &accounts {
            account
                .serialize(&mut writer)
                .map_err(invalid_account_data)?;
        }
        Ok(())
    }
}

common::stack_program!(Borsh);
