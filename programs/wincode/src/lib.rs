//! wincode: `Account` is `repr(C)` with no implicit padding, so besides the
//! owned round trip it has a zero-copy path (`ZeroCopy`, asserted at compile
//! time in `common` with `#[wincode(assert_zero_copy)]`).
//! - `full`: the owned round trip: `deserialize` the whole `Account`, check,
//!   update, `serialize_into` the account data.
//! - `read_owner`: zero-copy `Account::from_bytes`, then the owner check.
//! - `update_amount`: zero-copy `Account::from_bytes_mut`, then two field
//!   writes.
#![no_std]

use common::{Account, AccountBytes, Address, Operations, ProgramResult, invalid_account_data};
use wincode::ZeroCopy;

struct Wincode;

impl Operations for Wincode {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let mut account: Account = wincode::deserialize(data).map_err(invalid_account_data)?;
        account.check_owner(owner)?;
        account.update();
        wincode::serialize_into(&mut data[..], &account).map_err(invalid_account_data)
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        Account::from_bytes(data)
            .map_err(invalid_account_data)?
            .check_owner(owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        Account::from_bytes_mut(data)
            .map_err(invalid_account_data)?
            .update();
        Ok(())
    }
}

common::program!(Wincode);
