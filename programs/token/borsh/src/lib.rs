//! borsh: no zero-copy path, so every operation is an owned round trip
//! (`RoundTrip`): `full` and `update_amount` decode the whole `Account` with
//! `BorshDeserialize::deserialize` over the data (which reads a prefix and
//! refuses short data) and encode it back with `to_writer`; `read_owner`
//! decodes the whole `Account` to read its owner. (`try_from_slice` would
//! also refuse trailing bytes, which the `at_least` and `unchecked` shapes
//! accept.)
#![no_std]

use borsh::BorshDeserialize;
use common::{
    ProgramError, ProgramResult, invalid_account_data,
    token::{Account, AccountBytes, Codec, RoundTrip},
};

struct Borsh;

impl Codec for Borsh {
    fn decode(data: &AccountBytes) -> Result<Account, ProgramError> {
        Account::deserialize(&mut &data[..]).map_err(invalid_account_data)
    }

    fn encode(account: &Account, data: &mut AccountBytes) -> ProgramResult {
        borsh::to_writer(&mut data[..], account).map_err(invalid_account_data)
    }
}

common::token_program!(RoundTrip<Borsh>);
