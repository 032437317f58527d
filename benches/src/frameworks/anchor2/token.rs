//! The token family's record in Anchor 2, `Account<T>` (zero-copy) and
//! `BorshAccount<T>` alike: the family's 160 bytes (the raw layout is also
//! its borsh encoding) behind the `TokenRecord` discriminator, 168 bytes.
//! Anchor's checks, in its order: the instruction discriminator
//! (`InvalidInstructionData`); two accounts (`NotEnoughAccountKeys`);
//! account [0] writable for `full` and `update_amount` (`Custom(2000)`);
//! its data: long enough (`AccountDataTooSmall`; [`AccountType`] says for
//! what), the discriminator equal (`InvalidAccountData`), the record
//! there (`BorshAccount<T>`: else it does not decode, `InvalidAccountData`);
//! account [1] the record's owner for `full` and
//! `read_owner` (`address` constraint, `Custom(2012)`). A write changes
//! `state` and `amount` only; bytes past the record stay.

use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use solana_program_error::ProgramError;

use super::{discriminator, instruction};
use crate::{
    Case, Input, Program,
    token::record::{ACCOUNT_LEN, Encoding, fixture_owner},
};

/// The `#[account]` type's name in both token programs.
pub const RECORD_TYPE: &str = "TokenRecord";
/// Anchor's `ConstraintMut`: a `mut` account passed read-only.
pub const CONSTRAINT_MUT: ProgramError = ProgramError::Custom(2000);
/// Anchor's `ConstraintAddress`: the `address` constraint failed.
pub const CONSTRAINT_ADDRESS: ProgramError = ProgramError::Custom(2012);

const DISCRIMINATOR_LEN: usize = 8;
const OWNER: std::ops::Range<usize> = DISCRIMINATOR_LEN + 32..DISCRIMINATOR_LEN + 64;
const AMOUNT: std::ops::Range<usize> = DISCRIMINATOR_LEN + 64..DISCRIMINATOR_LEN + 72;
const STATE: usize = DISCRIMINATOR_LEN + 104;

/// The operation an instruction's discriminator names, if any.
pub fn operation_of(instruction_data: &[u8]) -> Option<Operation> {
    let tag = instruction_data.get(..DISCRIMINATOR_LEN)?;
    Operation::ALL
        .into_iter()
        .find(|op| instruction(op.name()) == tag)
}

/// The account's data: the discriminator, then the family's fixture.
pub fn account(raw: &[u8]) -> Vec<u8> {
    [&discriminator("account", RECORD_TYPE)[..], raw].concat()
}

/// The benchmark call of `operation`: the fixture, its owner, both
/// accounts, account [0] writable.
pub fn valid_input(operation: Operation) -> Input {
    Input {
        instruction_data: instruction(operation.name()).to_vec(),
        account_count: 2,
        writable: true,
        data: account(&Encoding::Raw.fixture()),
        owner_key: fixture_owner(),
    }
}

pub fn cases(program: &Program) -> Vec<Case> {
    Operation::ALL
        .into_iter()
        .map(|op| Case::new(program, op.name(), &valid_input(op)))
        .collect()
}

/// How the program holds the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountType {
    /// `Account<T>`: a checked cast; data shorter than the discriminator
    /// and the record (168 bytes) is `AccountDataTooSmall`, before the
    /// discriminator is read.
    ZeroCopy,
    /// `BorshAccount<T>`: decoded on load; data shorter than the
    /// discriminator is `AccountDataTooSmall`, a short record does not
    /// decode (`InvalidAccountData`).
    Borsh,
}

impl AccountType {
    /// The account type of a token program (`token/account` or
    /// `token/borsh_account`).
    pub fn of(program: &Program) -> Self {
        if program.name.ends_with("borsh_account") {
            Self::Borsh
        } else {
            Self::ZeroCopy
        }
    }
}

/// What an Anchor 2 token program holding its record as `account_type`
/// must do with `input` (the module's contract).
pub fn expected(account_type: AccountType, input: &Input) -> Result<Vec<u8>, ProgramError> {
    let operation =
        operation_of(&input.instruction_data).ok_or(ProgramError::InvalidInstructionData)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    let writes = operation.writes();
    if writes && !input.writable {
        return Err(CONSTRAINT_MUT);
    }
    let data = &input.data;
    // `Account<T>` wants the whole record there before it reads the
    // discriminator; `BorshAccount<T>` the discriminator's 8 bytes.
    if account_type == AccountType::ZeroCopy && data.len() < DISCRIMINATOR_LEN + ACCOUNT_LEN {
        return Err(ProgramError::AccountDataTooSmall);
    }
    let tag = data
        .get(..DISCRIMINATOR_LEN)
        .ok_or(ProgramError::AccountDataTooSmall)?;
    if tag != discriminator("account", RECORD_TYPE) {
        return Err(ProgramError::InvalidAccountData);
    }
    if data.len() < DISCRIMINATOR_LEN + ACCOUNT_LEN {
        // Only `BorshAccount<T>` gets here: the record does not decode.
        return Err(ProgramError::InvalidAccountData);
    }
    if operation != Operation::UpdateAmount && data[OWNER] != input.owner_key {
        return Err(CONSTRAINT_ADDRESS);
    }
    let mut after = data.clone();
    if writes {
        after[STATE] = NEW_STATE;
        after[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    }
    Ok(after)
}

/// The floor: the same calls, each a success that changes nothing
/// (Anchor checks only the discriminator and the two accounts).
pub fn expected_noop(input: &Input) -> Result<Vec<u8>, ProgramError> {
    operation_of(&input.instruction_data).ok_or(ProgramError::InvalidInstructionData)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    Ok(input.data.clone())
}
