//! borsh: no zero-copy path, so every operation is an owned round trip.
//! - `full`: `try_from_slice` decodes the whole `Account`, check, update,
//!   `to_writer` encodes it back into the account data.
//! - `read_owner`: decodes the whole `Account` to read its owner.
//! - `update_amount`: decodes the whole `Account`, updates, encodes it back.
#![no_std]

use borsh::BorshDeserialize;
use common::{
    Account, AccountBytes, Address, Operations, ProgramError, ProgramResult, invalid_account_data,
};

struct Borsh;

impl Borsh {
    fn decode(data: &AccountBytes) -> Result<Account, ProgramError> {
        Account::try_from_slice(data).map_err(invalid_account_data)
    }

    fn encode(account: &Account, data: &mut AccountBytes) -> ProgramResult {
        borsh::to_writer(&mut data[..], account).map_err(invalid_account_data)
    }
}

impl Operations for Borsh {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let mut account = Self::decode(data)?;
        account.check_owner(owner)?;
        account.update();
        Self::encode(&account, data)
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        Self::decode(data)?.check_owner(owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        let mut account = Self::decode(data)?;
        account.update();
        Self::encode(&account, data)
    }
}

common::program!(Borsh);
