//! borsh: no zero-copy path, so every operation is an owned round trip
//! (`common::RoundTrip`): `full` and `update_amount` decode the whole
//! `Account` with `try_from_slice` and encode it back with `to_writer`;
//! `read_owner` decodes the whole `Account` to read its owner.
#![no_std]

use borsh::BorshDeserialize;
use common::{
    Account, AccountBytes, Codec, ProgramError, ProgramResult, RoundTrip, invalid_account_data,
};

struct Borsh;

impl Codec for Borsh {
    fn decode(data: &AccountBytes) -> Result<Account, ProgramError> {
        Account::try_from_slice(data).map_err(invalid_account_data)
    }

    fn encode(account: &Account, data: &mut AccountBytes) -> ProgramResult {
        borsh::to_writer(&mut data[..], account).map_err(invalid_account_data)
    }
}

common::program!(RoundTrip<Borsh>);
