//! The star_frame programs (`programs/star_frame/`) on the harness side:
//! the token family's contract as star_frame states it (an oracle, as for
//! every other program) and the benchmark cases. star_frame 0.30.0's
//! instruction set dispatches on an 8-byte discriminant,
//! `sha256("global:<name>")[..8]` (Anchor's), so the instruction data is
//! that, not the family's op byte; the record sits behind its 8-byte
//! account discriminant, `sha256("account:TokenRecord")[..8]`. Its
//! checks, in its order (read from star_frame's `InstructionSet` derive,
//! `Account<T>`'s validation, `MaybeMut`'s and the unsized wrappers'), with
//! star_frame's own error codes (`ErrorCode`, as `Custom`): instruction
//! data shorter than the discriminant, and fewer than two accounts, are
//! `advancer`'s error (`AdvanceError`); an unknown discriminant
//! `InvalidInstructionData`; account [0]'s data shorter than its
//! discriminant `AccountDataTooSmall`, another discriminant
//! `DiscriminantMismatch`, another owner program `InvalidAccountOwner`;
//! for a write, a read-only account `ExpectedWritable` (`Mut<T>`'s check,
//! after the account's own); then, in the handler, a record shorter than
//! 160 bytes `RawSliceAdvance` where `data()` or `data_mut()` lays it over
//! the bytes (a longer account is accepted: the `at_least` shape), and
//! another owner `IncorrectAuthority` (the handler's `ensure!`).
//!
//! The metadata record, in star_frame's unsized types: [`metadata`]; as
//! an instruction's argument: [`args`].

pub mod args;
pub mod metadata;

use common::token::Operation;
use sha2::{Digest, Sha256};
use solana_program_error::ProgramError;

use crate::{Case, Family, HarnessError, Input, Program, token::record::ACCOUNT_LEN};

/// This oracle's framework, by its name in `programs/frameworks.toml`.
pub const ORACLE: super::Oracle = super::Oracle {
    name: "star_frame",
    expected,
    cases,
};

/// star_frame's `ErrorCode::ExpectedWritable`.
pub const EXPECTED_WRITABLE: ProgramError = ProgramError::Custom(1000);
/// star_frame's `ErrorCode::DiscriminantMismatch`.
pub const DISCRIMINANT_MISMATCH: ProgramError = ProgramError::Custom(1003);
/// star_frame's `ErrorCode::RawSliceAdvance`.
pub const RAW_SLICE_ADVANCE: ProgramError = ProgramError::Custom(2002);
/// star_frame's `ErrorCode::AdvanceError`: too few bytes or accounts to
/// take the next from.
pub const ADVANCE_ERROR: ProgramError = ProgramError::Custom(9004);

const DISCRIMINANT_LEN: usize = 8;
const OWNER: std::ops::Range<usize> = DISCRIMINANT_LEN + 32..DISCRIMINANT_LEN + 64;

/// `sha256("<namespace>:<name>")[..8]`, star_frame's `sighash!`.
pub fn sighash(namespace: &str, name: &str) -> [u8; 8] {
    let digest = Sha256::digest(format!("{namespace}:{name}"));
    digest[..8].try_into().expect("eight bytes")
}

/// An operation's instruction discriminant.
pub fn instruction(operation: Operation) -> Vec<u8> {
    sighash("global", operation.name()).to_vec()
}

/// The account's data: the record's discriminant, then the family's
/// record.
pub fn account(raw: &[u8]) -> Vec<u8> {
    [&sighash("account", "TokenRecord")[..], raw].concat()
}

/// The benchmark call of `operation`: its discriminant, the fixture behind
/// the account's, its owner, both accounts, account [0] writable.
pub fn valid_input(operation: Operation) -> Input {
    super::token_input(instruction(operation), account)
}

pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    super::cases(
        programs,
        &super::Calls {
            framework: "star_frame",
            token: valid_input,
            metadata: Some(|program| {
                if program.name == args::NAME {
                    args::cases(program)
                } else {
                    metadata::cases(program)
                }
            }),
        },
    )
}

/// What a star_frame program must do with `input` (the module's contract;
/// the floor succeeds wherever the discriminant and the accounts do).
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if program.name == args::NAME {
        return args::expected(input);
    }
    if program.family == Family::Metadata {
        return metadata::expected(input);
    }
    let tag = input
        .instruction_data
        .get(..DISCRIMINANT_LEN)
        .ok_or(ADVANCE_ERROR)?;
    let operation = Operation::ALL
        .into_iter()
        .find(|o| instruction(*o) == tag)
        .ok_or(ProgramError::InvalidInstructionData)?;
    if input.account_count < 2 {
        return Err(ADVANCE_ERROR);
    }
    if program.name == "noop" {
        return Ok(input.data.clone());
    }
    let data = &input.data;
    if data.len() < DISCRIMINANT_LEN {
        return Err(ProgramError::AccountDataTooSmall);
    }
    if data[..DISCRIMINANT_LEN] != sighash("account", "TokenRecord") {
        return Err(DISCRIMINANT_MISMATCH);
    }
    if operation.writes() && !input.writable {
        return Err(EXPECTED_WRITABLE);
    }
    if data.len() < DISCRIMINANT_LEN + ACCOUNT_LEN {
        return Err(RAW_SLICE_ADVANCE);
    }
    if operation != Operation::UpdateAmount && data[OWNER] != input.owner_key {
        return Err(ProgramError::IncorrectAuthority);
    }
    if !operation.writes() {
        return Ok(data.clone());
    }
    Ok(super::written(data, DISCRIMINANT_LEN))
}
