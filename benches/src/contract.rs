//! The contract every program meets, written down independently of the
//! programs: the test oracle that says what any input must produce.

use std::ops::Range;

use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use solana_program_error::ProgramError;

use crate::workspace::Shape;

/// Length of the raw layout, and of every fixed-width encoding of it.
pub const ACCOUNT_LEN: usize = 160;
// Field offsets, from the contract's field order (not from `common`).
const OWNER: Range<usize> = 32..64;
const AMOUNT: Range<usize> = 64..72;
const STATE: usize = 104;
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

const FULL: u8 = Operation::Full as u8;
const READ_OWNER: u8 = Operation::ReadOwner as u8;
const UPDATE_AMOUNT: u8 = Operation::UpdateAmount as u8;

/// How a program stores `Account`: the raw 160 bytes (every fixed-width
/// format), or a varint encoding of the same fields. A program names its
/// encoding in its Cargo.toml (`[package.metadata.token] encoding = ...`);
/// without one it is `raw`. Written here from each format's specification,
/// not through the crates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// The `repr(C)` layout: fields in order, integers little-endian.
    Raw,
    /// postcard: each `u64` an LEB128 varint (7 bits a byte, low first; up
    /// to 10 bytes, the 10th at most 1); bytes as they are.
    Postcard,
    /// bincode 2's `standard()`: each `u64` one byte below 251, else tag
    /// 251/252/253 and the value in 2/4/8 little-endian bytes (254 and 255
    /// are refused); bytes as they are.
    BincodeVarint,
}

impl Encoding {
    pub const ALL: [Encoding; 3] = [Self::Raw, Self::Postcard, Self::BincodeVarint];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Raw => "raw",
            Self::Postcard => "postcard",
            Self::BincodeVarint => "bincode_varint",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }

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

/// One call of a program, described by what the contract looks at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    pub instruction_data: Vec<u8>,
    /// How many accounts are passed: [0] the data account, [1] the owner,
    /// [2] an extra account the contract ignores.
    pub account_count: usize,
    /// Whether account [0] is passed writable.
    pub writable: bool,
    /// Account [0]'s data.
    pub data: Vec<u8>,
    /// Account [1]'s key.
    pub owner_key: [u8; 32],
}

impl Input {
    /// The call a benchmark makes: the fixture in `encoding`, the right
    /// owner, both accounts, account [0] writable.
    pub fn valid(operation: Operation, encoding: Encoding) -> Self {
        Self {
            instruction_data: vec![operation as u8],
            account_count: 2,
            writable: true,
            data: encoding.fixture(),
            owner_key: fixture_owner(),
        }
    }

    /// What a program built in `shape` and storing `encoding` must do: the
    /// data of account [0] afterwards, or the error, checked in the
    /// contract's order. On error nothing changes. `exact` wants the
    /// encoding's account length before the writable check; `at_least`
    /// wants at least that there; `unchecked` finds out after the writable
    /// check, when the crate decodes. A write puts the new encoding at the
    /// start and leaves every byte after it as it was (the crate refuses to
    /// write past the data).
    pub fn expected(&self, shape: Shape, encoding: Encoding) -> Result<Vec<u8>, ProgramError> {
        if self.account_count < 2 {
            return Err(ProgramError::NotEnoughAccountKeys);
        }
        let op = match self.instruction_data.first() {
            Some(&op @ (FULL | READ_OWNER | UPDATE_AMOUNT)) => op,
            _ => return Err(ProgramError::InvalidInstructionData),
        };
        let len = self.data.len();
        let account_len = encoding.account_len();
        match shape {
            Shape::Exact if len != account_len => return Err(ProgramError::InvalidAccountData),
            Shape::AtLeast if len < account_len => return Err(ProgramError::InvalidAccountData),
            _ => {}
        }
        let writes = op != READ_OWNER;
        if writes && !self.writable {
            return Err(ProgramError::Immutable);
        }
        let mut raw = encoding
            .decode(&self.data)
            .ok_or(ProgramError::InvalidAccountData)?;
        let checks_owner = op != UPDATE_AMOUNT;
        if checks_owner && raw[OWNER] != self.owner_key {
            return Err(ProgramError::IncorrectAuthority);
        }
        let mut data = self.data.clone();
        if writes {
            raw[STATE] = NEW_STATE;
            raw[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
            let encoded = encoding.encode(&raw);
            data.get_mut(..encoded.len())
                .ok_or(ProgramError::InvalidAccountData)?
                .copy_from_slice(&encoded);
        }
        Ok(data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The oracle against bytes written out by hand, so that it is not
    /// checked only against itself.
    #[test]
    fn oracle_writes_exactly_state_and_amount() {
        let mut updated = fixture();
        updated[64..72].copy_from_slice(&[0x00, 0xCA, 0x9A, 0x3B, 0, 0, 0, 0]);
        updated[104] = 0xFF;
        assert_eq!(
            Input::valid(Operation::Full, Encoding::Raw).expected(Shape::Exact, Encoding::Raw),
            Ok(updated.clone())
        );
        assert_eq!(
            Input::valid(Operation::UpdateAmount, Encoding::Raw)
                .expected(Shape::Exact, Encoding::Raw),
            Ok(updated)
        );
        assert_eq!(
            Input::valid(Operation::ReadOwner, Encoding::Raw).expected(Shape::Exact, Encoding::Raw),
            Ok(fixture())
        );
    }

    #[test]
    fn oracle_checks_in_contract_order() {
        let mut input = Input::valid(Operation::Full, Encoding::Raw);
        input.owner_key = [0; 32];
        assert_eq!(
            input.expected(Shape::Exact, Encoding::Raw),
            Err(ProgramError::IncorrectAuthority)
        );
        input.writable = false;
        assert_eq!(
            input.expected(Shape::Exact, Encoding::Raw),
            Err(ProgramError::Immutable)
        );
        input.data.push(0);
        assert_eq!(
            input.expected(Shape::Exact, Encoding::Raw),
            Err(ProgramError::InvalidAccountData)
        );
        input.instruction_data = vec![3];
        assert_eq!(
            input.expected(Shape::Exact, Encoding::Raw),
            Err(ProgramError::InvalidInstructionData)
        );
        input.account_count = 1;
        assert_eq!(
            input.expected(Shape::Exact, Encoding::Raw),
            Err(ProgramError::NotEnoughAccountKeys)
        );
    }

    #[test]
    fn shapes_differ_in_length_and_order() {
        let mut long = Input::valid(Operation::Full, Encoding::Raw);
        long.data.extend([0xAB; 3]);
        let mut updated = long.data.clone();
        updated[STATE] = NEW_STATE;
        updated[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
        assert_eq!(
            long.expected(Shape::Exact, Encoding::Raw),
            Err(ProgramError::InvalidAccountData)
        );
        assert_eq!(
            long.expected(Shape::AtLeast, Encoding::Raw),
            Ok(updated.clone())
        );
        assert_eq!(long.expected(Shape::Unchecked, Encoding::Raw), Ok(updated));

        let short_read_only = Input {
            data: vec![1; 159],
            writable: false,
            ..Input::valid(Operation::Full, Encoding::Raw)
        };
        for (shape, error) in [
            (Shape::Exact, ProgramError::InvalidAccountData),
            (Shape::AtLeast, ProgramError::InvalidAccountData),
            (Shape::Unchecked, ProgramError::Immutable),
        ] {
            assert_eq!(
                short_read_only.expected(shape, Encoding::Raw),
                Err(error),
                "{shape:?}"
            );
        }
    }

    /// The varint encodings against bytes written out by hand: the new
    /// amount (1e9) and two zeros, around zeroed byte fields.
    #[test]
    fn varint_encodings_match_hand_written_bytes() {
        let mut raw = [0u8; ACCOUNT_LEN];
        raw[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
        for (encoding, amount) in [
            (Encoding::Postcard, vec![0x80, 0x94, 0xEB, 0xDC, 0x03]),
            (Encoding::BincodeVarint, vec![252, 0x00, 0xCA, 0x9A, 0x3B]),
        ] {
            let mut expected = vec![0u8; 64];
            expected.extend(&amount);
            expected.extend([0u8; 32 + 1 + 7]);
            expected.extend([0, 0]);
            expected.extend([0u8; 32]);
            assert_eq!(encoding.encode(&raw), expected, "{encoding:?}");
            assert_eq!(encoding.decode(&expected), Some(raw), "{encoding:?}");
        }
    }

    #[test]
    fn varint_decoders_refuse_what_the_crates_refuse() {
        let prefix = [0u8; 64];
        let refused: [(Encoding, &[u8]); 4] = [
            // An 11th LEB128 byte, and a 10th above 1.
            (Encoding::Postcard, &[0xFF; 10]),
            (
                Encoding::Postcard,
                &[0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x02],
            ),
            // bincode's u128 tag, and its reserved one.
            (Encoding::BincodeVarint, &[254]),
            (Encoding::BincodeVarint, &[255]),
        ];
        for (encoding, amount) in refused {
            let mut data = prefix.to_vec();
            data.extend(amount);
            data.resize(400, 0);
            assert_eq!(encoding.decode(&data), None, "{encoding:?} {amount:?}");
        }
        for encoding in Encoding::ALL {
            let fixture = encoding.fixture();
            assert_eq!(encoding.decode(&fixture), Some(raw_fixture()));
            let short = &fixture[..encoding.fixture_encoded_len() - 1];
            assert_eq!(encoding.decode(short), None, "{encoding:?}");
        }
    }

    #[test]
    fn fixture_bytes_are_distinct() {
        let data = fixture();
        let mut sorted = data.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), ACCOUNT_LEN);
        assert!(!data.contains(&0) && !data.contains(&NEW_STATE));
    }
}
