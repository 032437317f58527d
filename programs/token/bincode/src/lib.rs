//! bincode 2, with fixed-width little-endian integers so that its bytes are
//! the `repr(C)` layout. No zero-copy path, so every operation is an owned
//! round trip (`RoundTrip`): `full` and `update_amount` decode the whole
//! `Account` with `decode_from_slice` (which reads a prefix and refuses short
//! data) and encode it back with `encode_into_slice`; `read_owner` decodes
//! the whole `Account` to read its owner.
#![no_std]

use bincode::config::{Configuration, Fixint, LittleEndian, NoLimit};
use common::{
    ProgramError, ProgramResult, invalid_account_data,
    token::{Account, AccountBytes, Codec, RoundTrip},
};

const CONFIG: Configuration<LittleEndian, Fixint, NoLimit> =
    bincode::config::standard().with_fixed_int_encoding();

struct Bincode;

impl Codec for Bincode {
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

common::token_program!(RoundTrip<Bincode>);
