//! The token family's contract, written down independently of the programs:
//! the oracle that says what any input must produce.

use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use solana_program_error::ProgramError;

use super::record::{AMOUNT, Encoding, OWNER, STATE, fixture_owner};
use crate::{Input, program::Shape};

const FULL: u8 = Operation::Full as u8;
const READ_OWNER: u8 = Operation::ReadOwner as u8;
const UPDATE_AMOUNT: u8 = Operation::UpdateAmount as u8;

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
    use crate::token::record::*;

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
