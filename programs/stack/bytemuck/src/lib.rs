//! bytemuck, the zero-copy crate. By value: `pod_read_unaligned` copies
//! the `[Account; N]` onto the stack, then `bytes_of` writes it back. Off
//! the stack: `try_from_bytes_mut` casts the data in place (nothing is
//! copied; the data is 8-byte aligned, as `Account` needs).
#![no_std]

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    stack::{Account, N, Sweep, bump_last},
};

const LEN: usize = N * Account::LEN;

struct Bytemuck;

impl Sweep for Bytemuck {
    fn by_value(data: &mut [u8]) -> ProgramResult {
        let bytes = data
            .get_mut(..LEN)
            .ok_or(ProgramError::InvalidAccountData)?;
        let mut accounts: [Account; N] =
            bytemuck::try_pod_read_unaligned(bytes).map_err(invalid_account_data)?;
        bump_last(&mut accounts)?;
        bytes.copy_from_slice(bytemuck::bytes_of(&accounts));
        Ok(())
    }

    fn off_stack(data: &mut [u8]) -> ProgramResult {
        let bytes = data
            .get_mut(..LEN)
            .ok_or(ProgramError::InvalidAccountData)?;
        let accounts: &mut [Account; N] =
            bytemuck::try_from_bytes_mut(bytes).map_err(invalid_account_data)?;
        bump_last(accounts)
    }
}

common::stack_program!(Bytemuck);
