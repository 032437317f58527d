//! wincode: `Account` is `repr(C)` with no implicit padding, so wincode
//! reads it zero-copy (`ZeroCopy`, asserted at compile time in `common` with
//! `#[wincode(assert_zero_copy)]`), and all three operations use that path
//! in place (`InPlace`): `Account::from_bytes` for `read_owner`,
//! `Account::from_bytes_mut` for `full` and `update_amount`. Both read a
//! prefix and refuse short data.
//!
//! Its owned round trip (`deserialize`, change, `serialize_into`) costs more
//! on this struct, because the derived `deserialize` reads field by field
//! behind a drop guard: see the README ("wincode's owned round trip").
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    token::{Account, AccountBytes, InPlace, View},
};
use wincode::ZeroCopy;

struct Wincode;

impl View for Wincode {
    type Ref<'a> = &'a Account;
    type Mut<'a> = &'a mut Account;

    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        Account::from_bytes(data).map_err(invalid_account_data)
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        Account::from_bytes_mut(data).map_err(invalid_account_data)
    }
}

common::token_program!(InPlace<Wincode>);
