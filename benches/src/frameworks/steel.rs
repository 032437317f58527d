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
//!
//! The metadata record (`programs/steel/metadata/account`) is the same
//! account type over the record at fixed capacity
//! ([`super::fixed_metadata`]), its discriminator 1 too. Its instructions:
//! the family's op byte (3 `read_royalty`, 4 `set_uri`; any other is
//! `InvalidInstructionData`), then `read_royalty`'s `instruction!` record,
//! exactly its two bytes (`try_from_bytes`: any other length is
//! `InvalidInstructionData`, checked before the accounts, as Steel's
//! examples parse arguments first), or `set_uri`'s uri, the bytes after
//! the tag; then the accounts as for the token record (`set_uri` a write);
//! then the record's own checks, the family's errors.

use common::{metadata::Metadata, token::Operation};
use solana_program_error::ProgramError;

use super::fixed_metadata::{self, Call};
use crate::{
    Case, Family, HarnessError, Input, Program, metadata::instruction_data,
    token::record::ACCOUNT_LEN,
};

/// This oracle's framework, by its name in `programs/frameworks.toml`.
pub const ORACLE: super::Oracle = super::Oracle {
    name: "steel",
    expected,
    cases,
};

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

/// The benchmark call of a metadata `operation` on `metadata`: the
/// family's instruction data (Steel's tag and arguments are its bytes),
/// the record behind the discriminator.
pub fn metadata_input(operation: &str, metadata: &Metadata) -> Input {
    let header = account(&[]);
    fixed_metadata::input(
        instruction_data(operation, metadata),
        &header,
        operation,
        metadata,
    )
}

pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    super::cases(
        programs,
        &super::Calls {
            framework: "Steel",
            token: valid_input,
            metadata: Some(|program| {
                fixed_metadata::cases(program, DISCRIMINATOR_LEN, metadata_input)
            }),
        },
    )
}

/// What a Steel program must do with `input` (the module's contract; the
/// floor succeeds wherever the op byte and the accounts do).
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if program.family == Family::Metadata {
        return expected_metadata(input);
    }
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

/// What the Steel metadata program must do with `input`.
fn expected_metadata(input: &Input) -> Result<Vec<u8>, ProgramError> {
    let call = Call::parse_exact(&input.instruction_data)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    if call.writes() && !input.writable {
        return Err(READ_ONLY_WRITE);
    }
    let data = &input.data;
    if data.len() != DISCRIMINATOR_LEN + common::metadata::FIXED_CAPACITY_LEN
        || data[0] != DISCRIMINATOR
    {
        return Err(ProgramError::InvalidAccountData);
    }
    fixed_metadata::apply(data, DISCRIMINATOR_LEN, &call, &input.owner_key)
}
