//! The token family's record as the contract sees it, written down
//! independently of the programs: the raw layout, each encoding a program
//! may store it in, and the fixture every case starts from.

use std::ops::Range;

pub use crate::program::Encoding;

/// Length of the raw layout, and of every fixed-width encoding of it.
pub const ACCOUNT_LEN: usize = 160;
// Field offsets, from the contract's field order (not from `common`).
pub(super) const OWNER: Range<usize> = 32..64;
pub(super) const AMOUNT: Range<usize> = 64..72;
pub(super) const STATE: usize = 104;
/// The raw layout's fields in order, as (length, whether it is a `u64`):
/// mint, owner, amount, delegate, state, padding, native_amount,
/// delegated_amount, close_authority.
const FIELDS: [(usize, bool); 9] = [
    (32, false),
    (32, false),
    (8, true),
    (32, false),
    (1, false),
    (7, false),
    (8, true),
    (8, true),
    (32, false),
];

/// Each encoding's bytes of `Account`, written here from each format's
/// specification, not through the crates.
impl Encoding {
    /// The account's length: the encoding's largest, so that any value fits.
    pub const fn account_len(self) -> usize {
        let byte_fields = ACCOUNT_LEN - 3 * 8;
        match self {
            Self::Raw => ACCOUNT_LEN,
            Self::Postcard => byte_fields + 3 * 10,
            Self::BincodeVarint => byte_fields + 3 * 9,
        }
    }

    /// The encoding of an account given as its raw 160 bytes.
    pub fn encode(self, raw: &[u8; ACCOUNT_LEN]) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.account_len());
        let mut at = 0;
        for (len, is_u64) in FIELDS {
            let field = &raw[at..at + len];
            at += len;
            if !is_u64 || self == Self::Raw {
                out.extend_from_slice(field);
                continue;
            }
            let value = u64::from_le_bytes(field.try_into().unwrap());
            match self {
                Self::Postcard => {
                    let mut rest = value;
                    while rest >= 0x80 {
                        out.push(rest as u8 | 0x80);
                        rest >>= 7;
                    }
                    out.push(rest as u8);
                }
                _ => match value {
                    0..=250 => out.push(value as u8),
                    251..=0xFFFF => {
                        out.push(251);
                        out.extend((value as u16).to_le_bytes());
                    }
                    0x1_0000..=0xFFFF_FFFF => {
                        out.push(252);
                        out.extend((value as u32).to_le_bytes());
                    }
                    _ => {
                        out.push(253);
                        out.extend(value.to_le_bytes());
                    }
                },
            }
        }
        out
    }

    /// Decodes an account from the start of `data` into its raw 160 bytes;
    /// `None` where the crate refuses the data (too short, or a malformed
    /// varint). Bytes after the encoding are ignored.
    pub fn decode(self, data: &[u8]) -> Option<[u8; ACCOUNT_LEN]> {
        let mut raw = Vec::with_capacity(ACCOUNT_LEN);
        let mut at = 0;
        let mut take = |len: usize| {
            let bytes = data.get(at..at + len)?;
            at += len;
            Some(bytes)
        };
        for (len, is_u64) in FIELDS {
            if !is_u64 || self == Self::Raw {
                raw.extend_from_slice(take(len)?);
                continue;
            }
            let value = match self {
                Self::Postcard => {
                    let mut value = 0u64;
                    let mut done = false;
                    for i in 0..10 {
                        let byte = take(1)?[0];
                        value |= u64::from(byte & 0x7F) << (7 * i);
                        if byte & 0x80 == 0 {
                            if i == 9 && byte > 1 {
                                return None;
                            }
                            done = true;
                            break;
                        }
                    }
                    done.then_some(value)?
                }
                _ => match take(1)?[0] {
                    byte @ 0..=250 => u64::from(byte),
                    251 => u64::from(u16::from_le_bytes(take(2)?.try_into().unwrap())),
                    252 => u64::from(u32::from_le_bytes(take(4)?.try_into().unwrap())),
                    253 => u64::from_le_bytes(take(8)?.try_into().unwrap()),
                    _ => return None,
                },
            };
            raw.extend_from_slice(&value.to_le_bytes());
        }
        raw.try_into().ok()
    }

    /// The account data the tests and benchmarks start from: the encoding
    /// of [`raw_fixture`], then zeros up to [`Self::account_len`].
    pub fn fixture(self) -> Vec<u8> {
        let mut data = self.encode(&raw_fixture());
        data.resize(self.account_len(), 0);
        data
    }

    /// The length of the fixture's encoding: data shorter than this is
    /// refused in every shape.
    pub fn fixture_encoded_len(self) -> usize {
        self.encode(&raw_fixture()).len()
    }
}

/// The account every test and benchmark starts from, as raw bytes: every
/// byte distinct and non-zero, so a stray write to any field shows.
pub fn raw_fixture() -> [u8; ACCOUNT_LEN] {
    core::array::from_fn(|i| i as u8 + 1)
}

/// The raw fixture as data (the account of every `raw` program).
pub fn fixture() -> Vec<u8> {
    raw_fixture().to_vec()
}

/// The owner stored in the fixture: the same bytes in every encoding, since
/// no integer comes before it.
pub fn fixture_owner() -> [u8; 32] {
    raw_fixture()[OWNER].try_into().unwrap()
}
