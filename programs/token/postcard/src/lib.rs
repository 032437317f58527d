//! postcard (serde): integers are LEB128 varints, so the account holds the
//! encoding's largest length, 166 bytes (136 bytes of byte fields and three
//! `u64`s of at most 10 bytes each), and the encoding fills a prefix of it
//! (163 bytes for the fixture, whose integers are all large). No zero-copy
//! path, so every operation is an owned round trip (`RoundTrip`): `full`
//! and `update_amount` decode the whole `Account` with `from_bytes` (which
//! reads a prefix and refuses short or malformed data) and encode it back
//! with `to_slice`, which writes only the encoding's bytes and refuses a
//! buffer too short for it; `read_owner` decodes the whole `Account`.
//! Nothing is read in place, so the data's alignment does not matter; no
//! `unsafe`.
#![no_std]

use common::{
    ProgramError, ProgramResult, invalid_account_data,
    token::{Account, Bytes, Codec, RoundTrip},
};

/// A `u64` takes at most 10 LEB128 bytes (7 bits each).
const LEN: usize = Account::BYTE_FIELDS_LEN + Account::U64_FIELDS * 10;

struct Postcard;

impl Codec<LEN> for Postcard {
    const LENGTH_MAY_CHANGE: bool = true;

    fn encoded_len(account: &Account) -> Result<usize, ProgramError> {
        postcard::experimental::serialized_size(account).map_err(invalid_account_data)
    }

    fn decode(data: &Bytes<LEN>) -> Result<Account, ProgramError> {
        postcard::from_bytes(data).map_err(invalid_account_data)
    }

    fn encode(account: &Account, data: &mut Bytes<LEN>) -> ProgramResult {
        postcard::to_slice(account, data).map_err(invalid_account_data)?;
        Ok(())
    }
}

common::token_program!(RoundTrip<Postcard>, len = LEN);
