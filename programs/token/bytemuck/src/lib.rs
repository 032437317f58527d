//! bytemuck: `Account` derives `Pod`, so all three operations borrow the
//! account bytes in place (`InPlace`) with `try_from_bytes` /
//! `try_from_bytes_mut`, which check size and alignment and never copy.
//! bytemuck has no prefix API (its size check wants exactly
//! `size_of::<Account>()` bytes), so the first 160 bytes are taken with
//! `get(..160)`, which refuses short data in every shape.
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    token::{Account, AccountBytes, InPlace, View},
};

struct Bytemuck;

impl View for Bytemuck {
    type Ref<'a> = &'a Account;
    type Mut<'a> = &'a mut Account;

    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        let prefix = data
            .get(..Account::LEN)
            .ok_or(ProgramError::InvalidAccountData)?;
        bytemuck::try_from_bytes(prefix).map_err(invalid_account_data)
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        let prefix = data
            .get_mut(..Account::LEN)
            .ok_or(ProgramError::InvalidAccountData)?;
        bytemuck::try_from_bytes_mut(prefix).map_err(invalid_account_data)
    }
}

common::token_program!(InPlace<Bytemuck>);
