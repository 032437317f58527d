//! bincode 2 with its default `standard()` configuration: integers are
//! varints (below 251 one byte, else a tag byte and the value in 2, 4 or 8
//! bytes), so the account holds the encoding's largest length, 163 bytes
//! (136 bytes of byte fields and three `u64`s of at most 9 bytes each), and
//! the encoding fills a prefix of it. No zero-copy path, so every operation
//! is an owned round trip (`RoundTrip`): `full` and `update_amount` decode
//! the whole `Account` with `decode_from_slice` (which reads a prefix and
//! refuses short or malformed data) and encode it back with
//! `encode_into_slice`, which writes only the encoding's bytes and refuses a
//! buffer too short for it; `read_owner` decodes the whole `Account`.
//! Nothing is read in place, so the data's alignment does not matter; no
//! `unsafe`.
#![no_std]

use bincode::{
    config::{Configuration, LittleEndian, NoLimit, Varint},
    enc::write::SizeWriter,
};
use common::{
    ProgramError, ProgramResult, invalid_account_data,
    token::{Account, Bytes, Codec, RoundTrip},
};

/// A `u64` takes at most a tag byte and 8 bytes.
const LEN: usize = Account::BYTE_FIELDS_LEN + Account::U64_FIELDS * 9;

const CONFIG: Configuration<LittleEndian, Varint, NoLimit> = bincode::config::standard();

struct BincodeVarint;

impl Codec<LEN> for BincodeVarint {
    const LENGTH_MAY_CHANGE: bool = true;

    fn encoded_len(account: &Account) -> Result<usize, ProgramError> {
        let mut size = SizeWriter::default();
        bincode::encode_into_writer(account, &mut size, CONFIG).map_err(invalid_account_data)?;
        Ok(size.bytes_written)
    }

    fn decode(data: &Bytes<LEN>) -> Result<Account, ProgramError> {
        let (account, _read) =
            bincode::decode_from_slice(data, CONFIG).map_err(invalid_account_data)?;
        Ok(account)
    }

    fn encode(account: &Account, data: &mut Bytes<LEN>) -> ProgramResult {
        bincode::encode_into_slice(account, data, CONFIG).map_err(invalid_account_data)?;
        Ok(())
    }
}

common::token_program!(RoundTrip<BincodeVarint>, len = LEN);
