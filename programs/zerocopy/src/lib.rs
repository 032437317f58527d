//! zerocopy: `Account` derives `FromBytes`, `IntoBytes`, `KnownLayout` and
//! `Immutable`, so every operation works on the account bytes in place.
//! - `full`: `mut_from_bytes` (size and alignment checked), check, update.
//! - `read_owner`: `ref_from_bytes`, then the owner check.
//! - `update_amount`: `mut_from_bytes`, then two field writes.
#![no_std]

use common::{Account, AccountBytes, Address, Operations, ProgramResult, invalid_account_data};
use zerocopy::FromBytes;

struct Zerocopy;

impl Operations for Zerocopy {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let account = Account::mut_from_bytes(data).map_err(invalid_account_data)?;
        account.check_owner(owner)?;
        account.update();
        Ok(())
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        Account::ref_from_bytes(data)
            .map_err(invalid_account_data)?
            .check_owner(owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        Account::mut_from_bytes(data)
            .map_err(invalid_account_data)?
            .update();
        Ok(())
    }
}

common::program!(Zerocopy);
