//! zerocopy: `Account` derives `FromBytes`, `IntoBytes`, `KnownLayout` and
//! `Immutable`, so all three operations borrow the account bytes in place
//! (`InPlace`) with `ref_from_prefix` / `mut_from_prefix`, which check size
//! and alignment, return an error instead of panicking, and leave any bytes
//! after the `Account` alone.
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    token::{Account, AccountBytes, InPlace, View},
};
use zerocopy::FromBytes;

struct Zerocopy;

impl View for Zerocopy {
    type Ref<'a> = &'a Account;
    type Mut<'a> = &'a mut Account;

    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        let (account, _rest) = Account::ref_from_prefix(data).map_err(invalid_account_data)?;
        Ok(account)
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        let (account, _rest) = Account::mut_from_prefix(data).map_err(invalid_account_data)?;
        Ok(account)
    }
}

common::token_program!(InPlace<Zerocopy>);
