//! The contract every program meets, written down independently of the
//! programs: the test oracle that says what any input must produce.

use std::ops::Range;

use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use solana_program_error::ProgramError;

use crate::workspace::Shape;

/// Length of the account data every operation expects.
pub const ACCOUNT_LEN: usize = 160;
// Field offsets, from the contract's field order (not from `common`).
const OWNER: Range<usize> = 32..64;
const AMOUNT: Range<usize> = 64..72;
const STATE: usize = 104;

const FULL: u8 = Operation::Full as u8;
const READ_OWNER: u8 = Operation::ReadOwner as u8;
const UPDATE_AMOUNT: u8 = Operation::UpdateAmount as u8;

/// The account data the tests and benchmarks start from: every byte distinct
/// and non-zero, so a stray write to any field shows.
pub fn fixture() -> Vec<u8> {
    (1..=ACCOUNT_LEN as u8).collect()
}

/// The owner stored in [`fixture`].
pub fn fixture_owner() -> [u8; 32] {
    fixture()[OWNER].try_into().unwrap()
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
    /// The call a benchmark makes: the fixture, the right owner, both
    /// accounts, account [0] writable.
    pub fn valid(operation: Operation) -> Self {
        Self {
            instruction_data: vec![operation as u8],
            account_count: 2,
            writable: true,
            data: fixture(),
            owner_key: fixture_owner(),
        }
    }

    /// What a program built in `shape` must do: the data of account [0]
    /// afterwards, or the error, checked in the contract's order. On error
    /// nothing changes. `exact` wants 160 bytes before the writable check;
    /// `at_least` wants at least 160 there; `unchecked` finds out after the
    /// writable check. Bytes after the first 160 are never written.
    pub fn expected(&self, shape: Shape) -> Result<Vec<u8>, ProgramError> {
        if self.account_count < 2 {
            return Err(ProgramError::NotEnoughAccountKeys);
        }
        let op = match self.instruction_data.first() {
            Some(&op @ (FULL | READ_OWNER | UPDATE_AMOUNT)) => op,
            _ => return Err(ProgramError::InvalidInstructionData),
        };
        let len = self.data.len();
        let short = len < ACCOUNT_LEN;
        match shape {
            Shape::Exact if len != ACCOUNT_LEN => return Err(ProgramError::InvalidAccountData),
            Shape::AtLeast if short => return Err(ProgramError::InvalidAccountData),
            _ => {}
        }
        let writes = op != READ_OWNER;
        if writes && !self.writable {
            return Err(ProgramError::Immutable);
        }
        if short {
            return Err(ProgramError::InvalidAccountData);
        }
        let checks_owner = op != UPDATE_AMOUNT;
        if checks_owner && self.data[OWNER] != self.owner_key {
            return Err(ProgramError::IncorrectAuthority);
        }
        let mut data = self.data.clone();
        if writes {
            data[STATE] = NEW_STATE;
            data[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
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
            Input::valid(Operation::Full).expected(Shape::Exact),
            Ok(updated.clone())
        );
        assert_eq!(
            Input::valid(Operation::UpdateAmount).expected(Shape::Exact),
            Ok(updated)
        );
        assert_eq!(
            Input::valid(Operation::ReadOwner).expected(Shape::Exact),
            Ok(fixture())
        );
    }

    #[test]
    fn oracle_checks_in_contract_order() {
        let mut input = Input::valid(Operation::Full);
        input.owner_key = [0; 32];
        assert_eq!(
            input.expected(Shape::Exact),
            Err(ProgramError::IncorrectAuthority)
        );
        input.writable = false;
        assert_eq!(input.expected(Shape::Exact), Err(ProgramError::Immutable));
        input.data.push(0);
        assert_eq!(
            input.expected(Shape::Exact),
            Err(ProgramError::InvalidAccountData)
        );
        input.instruction_data = vec![3];
        assert_eq!(
            input.expected(Shape::Exact),
            Err(ProgramError::InvalidInstructionData)
        );
        input.account_count = 1;
        assert_eq!(
            input.expected(Shape::Exact),
            Err(ProgramError::NotEnoughAccountKeys)
        );
    }

    #[test]
    fn shapes_differ_in_length_and_order() {
        let mut long = Input::valid(Operation::Full);
        long.data.extend([0xAB; 3]);
        let mut updated = long.data.clone();
        updated[STATE] = NEW_STATE;
        updated[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
        assert_eq!(
            long.expected(Shape::Exact),
            Err(ProgramError::InvalidAccountData)
        );
        assert_eq!(long.expected(Shape::AtLeast), Ok(updated.clone()));
        assert_eq!(long.expected(Shape::Unchecked), Ok(updated));

        let short_read_only = Input {
            data: vec![1; 159],
            writable: false,
            ..Input::valid(Operation::Full)
        };
        for (shape, error) in [
            (Shape::Exact, ProgramError::InvalidAccountData),
            (Shape::AtLeast, ProgramError::InvalidAccountData),
            (Shape::Unchecked, ProgramError::Immutable),
        ] {
            assert_eq!(short_read_only.expected(shape), Err(error), "{shape:?}");
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
