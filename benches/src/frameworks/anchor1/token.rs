//! The token family's record in Anchor 1.x: the family's 160 bytes (the raw
//! layout is also its borsh encoding) behind the `TokenRecord`
//! discriminator, 168 bytes, held as `Account<T>` (borsh),
//! `AccountLoader<T>` (zero-copy) or `LazyAccount<T>`. Anchor 1.x's
//! checks, in its order (read from anchor-lang 1.2.2 and anchor-syn
//! 1.2.2's generated `dispatch` and `try_accounts`):
//! - the instruction discriminator: else `InstructionFallbackNotFound`
//!   (`EventInstructionStub` for data led by Anchor's event tag);
//! - the record's account: there (`AccountNotEnoughKeys`), then loaded by
//!   its type: `Account<T>` checks the owner program
//!   (`AccountOwnedByWrongProgram`), the discriminator
//!   (`AccountDiscriminatorNotFound` under 8 bytes, else
//!   `AccountDiscriminatorMismatch`) and decodes the record
//!   (`AccountDidNotDeserialize` where it is not there whole);
//!   `AccountLoader<T>` the owner, then the discriminator; `LazyAccount<T>`
//!   the discriminator, then the owner;
//! - the owner's account: there (`AccountNotEnoughKeys`);
//! - the constraints: `mut` for `full` and `update_amount`
//!   (`ConstraintMut`), then `has_one = owner` for `full` and `read_owner`
//!   (`ConstraintHasOne`; `AccountLoader<T>` loads the record first, and a
//!   record that is not there whole is `AccountDidNotDeserialize`);
//! - the handler: `AccountLoader<T>`'s `load_mut` wants the record whole
//!   (`AccountDidNotDeserialize`).
//!
//! A write changes `state` and `amount` only; bytes past the record stay
//! (a longer account is accepted, as Anchor makes no length check).
//! `LazyAccount<T>` on an account too short for a field it loads does not
//! return an error: anchor-lang's generated `load_<field>` slices the data
//! without a bounds check and the program panics (it aborts);
//! [`expected`] says so with [`ABORTS`](super::ABORTS).

use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use solana_program_error::ProgramError;

use super::{
    ABORTS, CONSTRAINT_HAS_ONE, CONSTRAINT_MUT, DID_NOT_DESERIALIZE, NOT_ENOUGH_KEYS,
    check_discriminator, no_handler,
};
use crate::{Input, Program, token::record::ACCOUNT_LEN};

// The record, its discriminator and the benchmark calls are Anchor 2's
// token programs' (the same type name, the same instruction names).
pub use crate::frameworks::anchor2::token::{
    RECORD_TYPE, account, cases, operation_of, valid_input,
};

const DISCRIMINATOR_LEN: usize = 8;
const RECORD_END: usize = DISCRIMINATOR_LEN + ACCOUNT_LEN;
const OWNER: std::ops::Range<usize> = DISCRIMINATOR_LEN + 32..DISCRIMINATOR_LEN + 64;
const AMOUNT: std::ops::Range<usize> = DISCRIMINATOR_LEN + 64..DISCRIMINATOR_LEN + 72;
const STATE: usize = DISCRIMINATOR_LEN + 104;

/// How the program holds the record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccountType {
    /// `Account<T>`: decoded whole on load, encoded back on exit.
    Account,
    /// `AccountLoader<T>`: a checked cast when loaded.
    AccountLoader,
    /// `LazyAccount<T>`: each field decoded when loaded; a mutable one
    /// decoded whole and encoded back on exit.
    LazyAccount,
}

impl AccountType {
    /// The account type of a token program, by its folder.
    pub fn of(program: &Program) -> Self {
        match program.name.as_str() {
            "token/account_loader" => Self::AccountLoader,
            "token/lazy_account" => Self::LazyAccount,
            _ => Self::Account,
        }
    }
}

/// The dispatch's answer: the operation, or Anchor 1.x's error.
fn dispatch(instruction_data: &[u8]) -> Result<Operation, ProgramError> {
    operation_of(instruction_data).ok_or_else(|| no_handler(instruction_data))
}

/// What an Anchor 1.x token program holding its record as `account_type`
/// must do with `input` (the module's contract). Account [0] is the
/// program's own here; a foreign owner is a test's own case.
pub fn expected(account_type: AccountType, input: &Input) -> Result<Vec<u8>, ProgramError> {
    let operation = dispatch(&input.instruction_data)?;
    if input.account_count < 1 {
        return Err(NOT_ENOUGH_KEYS);
    }
    let data = &input.data;
    check_discriminator(data, RECORD_TYPE)?;
    let whole = data.len() >= RECORD_END;
    if account_type == AccountType::Account && !whole {
        return Err(DID_NOT_DESERIALIZE);
    }
    if input.account_count < 2 {
        return Err(NOT_ENOUGH_KEYS);
    }
    let writes = operation.writes();
    if writes && !input.writable {
        return Err(CONSTRAINT_MUT);
    }
    let checks_owner = operation != Operation::UpdateAmount;
    match account_type {
        AccountType::Account => {}
        // `has_one` loads the record; `update_amount`'s `load_mut` does.
        AccountType::AccountLoader if !whole => return Err(DID_NOT_DESERIALIZE),
        AccountType::AccountLoader => {}
        // `has_one` loads `owner` alone, slicing the data for it.
        AccountType::LazyAccount if checks_owner && data.len() < OWNER.end => {
            return Err(ABORTS);
        }
        AccountType::LazyAccount => {}
    }
    if checks_owner && data[OWNER] != input.owner_key {
        return Err(CONSTRAINT_HAS_ONE);
    }
    // A mutable `LazyAccount<T>` loads `state` and `amount`, then every
    // other field to encode the record back on exit: each slice past the
    // data's end panics.
    if account_type == AccountType::LazyAccount && writes && !whole {
        return Err(ABORTS);
    }
    let mut after = data.clone();
    if writes {
        after[STATE] = NEW_STATE;
        after[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    }
    Ok(after)
}

/// The floor: the same calls, each a success that changes nothing (it
/// checks only the discriminator and that two accounts are there).
pub fn expected_noop(input: &Input) -> Result<Vec<u8>, ProgramError> {
    dispatch(&input.instruction_data)?;
    if input.account_count < 2 {
        return Err(NOT_ENOUGH_KEYS);
    }
    Ok(input.data.clone())
}
