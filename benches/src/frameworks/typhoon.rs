//! The typhoon programs (`programs/typhoon/`) on the harness side: the
//! token family's contract as typhoon states it (an oracle, as for every
//! other program) and the benchmark cases. typhoon 0.3.0's router takes the
//! family's one-byte op, so the instruction data is the family's; the
//! record sits behind typhoon's 8-byte account discriminator (the first 4
//! bytes of `sha256(<type name>)`, then the layout version 1 and three
//! zeros). Its checks, in its order (read from typhoon-context's
//! `basic_router!`, typhoon-accounts' `Account<T>` and the context macro's
//! `has_one`): no op byte (`InvalidInstructionData`) or an unknown one
//! (`Custom(100)`, `UnknownInstruction`); two accounts
//! (`NotEnoughAccountKeys`); account [0]'s data at least the discriminator
//! (`AccountDataTooSmall`) and the discriminator equal (`Custom(102)`);
//! then the record, cast with bytemuck at its exact size (the
//! discriminator and 160 bytes; a longer account is refused too: the
//! `exact` shape): for `full` and `read_owner` in the `has_one` constraint
//! (`BorshIoError`, bytemuck's cast error as typhoon maps it), which then
//! compares the owner (`Custom(103)`); for `update_amount` in `mut_data`
//! (`InvalidAccountData`); then, for a write, the writable flag, which the
//! program checks itself (see [`READ_ONLY_WRITE`]).

use common::token::Operation;
use sha2::{Digest, Sha256};
use solana_program_error::ProgramError;

use crate::{Case, HarnessError, Input, Program, token::record::ACCOUNT_LEN};

/// This oracle's framework, by its name in `programs/frameworks.toml`.
pub const ORACLE: super::Oracle = super::Oracle {
    name: "typhoon",
    expected,
    cases,
};

/// The `AccountState` type's name in the token program.
pub const RECORD_TYPE: &str = "TokenRecord";
/// typhoon's `UnknownInstruction`.
pub const UNKNOWN_INSTRUCTION: ProgramError = ProgramError::Custom(100);
/// typhoon's `AccountDiscriminatorMismatch`.
pub const DISCRIMINATOR_MISMATCH: ProgramError = ProgramError::Custom(102);
/// typhoon's `HasOneConstraint`.
pub const HAS_ONE: ProgramError = ProgramError::Custom(103);
/// What a write to a read-only account gives. typhoon's `Mut` does not
/// check the flag (the runtime would refuse the write only after the
/// program ran, with `ReadonlyDataModified`, which is not a program
/// error), so the program checks it, as Anchor and the family's programs
/// do.
pub const READ_ONLY_WRITE: ProgramError = ProgramError::Immutable;

const DISCRIMINATOR_LEN: usize = 8;
const OWNER: std::ops::Range<usize> = DISCRIMINATOR_LEN + 32..DISCRIMINATOR_LEN + 64;

/// typhoon's account discriminator of a type.
pub fn discriminator(type_name: &str) -> [u8; 8] {
    let digest = Sha256::digest(type_name);
    [digest[0], digest[1], digest[2], digest[3], 1, 0, 0, 0]
}

/// The account's data: the discriminator, then the family's record.
pub fn account(raw: &[u8]) -> Vec<u8> {
    [&discriminator(RECORD_TYPE)[..], raw].concat()
}

/// The benchmark call of `operation`: the family's op byte, the fixture
/// behind the discriminator, its owner, both accounts, account [0]
/// writable.
pub fn valid_input(operation: Operation) -> Input {
    super::token_input(vec![operation as u8], account)
}

pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    super::cases(
        programs,
        &super::Calls {
            framework: "typhoon",
            token: valid_input,
            metadata: None,
        },
    )
}

/// What a typhoon program must do with `input` (the module's contract;
/// the floor succeeds wherever the op byte and the accounts do).
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    let operation = super::op_byte(input, UNKNOWN_INSTRUCTION)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    if program.name == "noop" {
        return Ok(input.data.clone());
    }
    let data = &input.data;
    let tag = data
        .get(..DISCRIMINATOR_LEN)
        .ok_or(ProgramError::AccountDataTooSmall)?;
    if tag != discriminator(RECORD_TYPE) {
        return Err(DISCRIMINATOR_MISMATCH);
    }
    if data.len() != DISCRIMINATOR_LEN + ACCOUNT_LEN {
        return Err(match operation {
            Operation::UpdateAmount => ProgramError::InvalidAccountData,
            Operation::Full | Operation::ReadOwner => ProgramError::BorshIoError,
        });
    }
    if operation != Operation::UpdateAmount && data[OWNER] != input.owner_key {
        return Err(HAS_ONE);
    }
    if !operation.writes() {
        return Ok(data.clone());
    }
    if !input.writable {
        return Err(READ_ONLY_WRITE);
    }
    Ok(super::written(data, DISCRIMINATOR_LEN))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// typhoon's own test vector for its discriminator: "state" ->
    /// [75, 166, 151, 53, 1, 0, 0, 0] (typhoon-discriminator 0.3.0).
    #[test]
    fn discriminator_matches_typhoons_vector() {
        assert_eq!(discriminator("state"), [75, 166, 151, 53, 1, 0, 0, 0]);
    }
}
