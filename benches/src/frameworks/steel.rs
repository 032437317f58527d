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

use common::token::{NEW_AMOUNT, NEW_STATE, Operation};
use solana_program_error::ProgramError;

use crate::{
    Case, Family, HarnessError, Input, Program,
    token::record::{ACCOUNT_LEN, Encoding, fixture_owner},
};

/// The record's discriminator, `TokenAccount::TokenRecord` in the program.
pub const DISCRIMINATOR: u8 = 1;
/// What a write to a read-only account gives: Steel's `is_writable`.
pub const READ_ONLY_WRITE: ProgramError = ProgramError::MissingRequiredSignature;

const DISCRIMINATOR_LEN: usize = 8;
const OWNER: std::ops::Range<usize> = DISCRIMINATOR_LEN + 32..DISCRIMINATOR_LEN + 64;
const AMOUNT: std::ops::Range<usize> = DISCRIMINATOR_LEN + 64..DISCRIMINATOR_LEN + 72;
const STATE: usize = DISCRIMINATOR_LEN + 104;

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
    Input {
        instruction_data: vec![operation as u8],
        account_count: 2,
        writable: true,
        data: account(&Encoding::Raw.fixture()),
        owner_key: fixture_owner(),
    }
}

pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for program in programs {
        if program.family != Family::Token {
            return Err(HarnessError::Report(format!(
                "{}: Steel's contract is written for the token family only",
                program.label()
            )));
        }
        cases.extend(Operation::ALL.map(|op| Case::new(program, op.name(), &valid_input(op))));
    }
    Ok(cases)
}

/// What a Steel program must do with `input` (the module's contract; the
/// floor succeeds wherever the op byte and the accounts do).
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    let op = *input
        .instruction_data
        .first()
        .ok_or(ProgramError::InvalidInstructionData)?;
    let operation = Operation::ALL
        .into_iter()
        .find(|o| *o as u8 == op)
        .ok_or(ProgramError::InvalidInstructionData)?;
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
    let mut after = data.clone();
    after[STATE] = NEW_STATE;
    after[AMOUNT].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    Ok(after)
}
