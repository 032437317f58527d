//! wincode: `Account` is `repr(C)` with no implicit padding, so besides the
//! owned round trip it has a zero-copy path (`ZeroCopy`, asserted at compile
//! time in `common` with `#[wincode(assert_zero_copy)]`).
//! - `full`: the owned round trip (`common::RoundTrip`): `deserialize` the
//!   whole `Account`, check, update, `serialize_into` the account data.
//! - `read_owner`: zero-copy `Account::from_bytes`, then the owner check.
//! - `update_amount`: zero-copy `Account::from_bytes_mut`, then two field
//!   writes (`common::InPlace`).
#![no_std]

use common::{
    Account, AccountBytes, Address, Codec, InPlace, Operations, ProgramError, ProgramResult,
    RoundTrip, View, invalid_account_data,
};
use wincode::ZeroCopy;

struct Wincode;

impl Codec for Wincode {
    fn decode(data: &AccountBytes) -> Result<Account, ProgramError> {
        wincode::deserialize(data).map_err(invalid_account_data)
    }

    fn encode(account: &Account, data: &mut AccountBytes) -> ProgramResult {
        wincode::serialize_into(&mut data[..], account).map_err(invalid_account_data)
    }
}

impl View for Wincode {
    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        Account::from_bytes(data).map_err(invalid_account_data)
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        Account::from_bytes_mut(data).map_err(invalid_account_data)
    }
}

impl Operations for Wincode {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        RoundTrip::<Self>::full(data, owner)
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        InPlace::<Self>::read_owner(data, owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        InPlace::<Self>::update_amount(data)
    }
}

common::program!(Wincode);
