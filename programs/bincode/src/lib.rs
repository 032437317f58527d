//! bincode 2 with fixed-width little-endian integers (so its bytes are the
//! `repr(C)` layout). No zero-copy path: every operation is an owned round
//! trip.
//! - `full`: `decode_from_slice` decodes the whole `Account`, check, update,
//!   `encode_into_slice` encodes it back into the account data.
//! - `read_owner`: decodes the whole `Account` to read its owner.
//! - `update_amount`: decodes the whole `Account`, updates, encodes it back.
#![no_std]

use bincode::config::{Configuration, Fixint, LittleEndian, NoLimit};
use common::{
    Account, AccountBytes, Address, Operations, ProgramError, ProgramResult, invalid_account_data,
};

const CONFIG: Configuration<LittleEndian, Fixint, NoLimit> =
    bincode::config::standard().with_fixed_int_encoding();

struct Bincode;

impl Bincode {
    fn decode(data: &AccountBytes) -> Result<Account, ProgramError> {
        let (account, _read) =
            bincode::decode_from_slice(data, CONFIG).map_err(invalid_account_data)?;
        Ok(account)
    }

    fn encode(account: &Account, data: &mut AccountBytes) -> ProgramResult {
        bincode::encode_into_slice(account, data, CONFIG).map_err(invalid_account_data)?;
        Ok(())
    }
}

impl Operations for Bincode {
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

common::program!(Bincode);
