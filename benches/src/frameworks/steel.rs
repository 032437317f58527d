//! The Steel programs (`programs/steel/`) on the harness side: the token
//! family's contract as Steel states it (an oracle, as for every other
//! program) and the benchmark cases. Steel 4.0.9 parses a one-byte
//! instruction tag (`parse_instruction`), so the instruction data is the
//! family's; the record sits behind Steel's account discriminator, one
//! byte (the `account!` enum's value, 1 here) then seven bytes Steel never
//! reads. Its checks, in its order (read from steel's `parse_instruction`,
//! `AccountInfoValidation` and `AsAccount`): no op byte or an unknown one
//! (`InvalidInstructionData`); two accounts (`NotEnoughAccountKeys`,
//! the program's own slice pattern, as Steel's examples write it); for a
//! write, the writable flag (`MissingRequiredSignature`: Steel's
//! `is_writable` returns that error); then `as_account`: the account's
//! program owner, its length exactly the discriminator and the record (a
//! longer account is refused too: the `exact` shape), the discriminator's
//! byte, and for `full` and `read_owner` the owner in the program's
//! `assert`, each refusal `InvalidAccountData` (each logged with Steel's
//! `trace`).

use common::token::Operation;
use solana_program_error::ProgramError;

use crate::{Case, HarnessError, Input, Program, token::record::ACCOUNT_LEN};

/// The record's discriminator, `TokenAccount::TokenRecord` in the program.
pub const DISCRIMINATOR: u8 = 1;
/// What a write to a read-only account gives: Steel's `is_writable`.
pub const READ_ONLY_WRITE: ProgramError = ProgramError::MissingRequiredSignature;

const DISCRIMINATOR_LEN: usize = 8;
const OWNER: std::ops::Range<usize> = DISCRIMINATOR_LEN + 32..DISCRIMINATOR_LEN + 64;

/// The account's data: the discriminator (its byte, seven zeros), then the
/// family's record.
pub fn account(raw: &[u8]) -> Vec<u8> {
    let mut tag = [0u8; DISCRIMINATOR_LEN];
    tag[0] = DISCRIMINATOR;
    [&tag[..], raw].concat()
}

/// The benchmark call of `operation`: the family's op byte, the fixture
/// behind the discriminator, its owner, both accounts, account [0]
/// writable.
pub fn valid_input(operation: Operation) -> Input {
    super::token_input(vec![operation as u8], account)
}

pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    super::token_cases(programs, "Steel", valid_input)
}

/// What a Steel program must do with `input` (the module's contract; the
/// floor succeeds wherever the op byte and the accounts do).
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    let operation = super::op_byte(input, ProgramError::InvalidInstructionData)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    if program.name == "noop" {
        return Ok(input.data.clone());
    }
    if operation.writes() && !input.writable {
        return Err(READ_ONLY_WRITE);
    }
    let data = &input.data;
    if data.len() != DISCRIMINATOR_LEN + ACCOUNT_LEN || data[0] != DISCRIMINATOR {
        return Err(ProgramError::InvalidAccountData);
    }
    if operation != Operation::UpdateAmount && data[OWNER] != input.owner_key {
        return Err(ProgramError::InvalidAccountData);
    }
    if !operation.writes() {
        return Ok(data.clone());
    }
    Ok(super::written(data, DISCRIMINATOR_LEN))
}
