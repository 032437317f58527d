//! The Anchor 1.x programs (`programs/anchor1/`, anchor-lang 1.2.2) on the
//! harness side: the token and metadata families' contracts as Anchor 1.x
//! states them (an
//! oracle, as for every program) and the benchmark cases. The
//! discriminators are Anchor's, as in Anchor 2 (`global:<instruction>`,
//! `account:<Type>`); the errors are Anchor 1.x's own `ErrorCode`s,
//! returned as `Custom(code)`.

pub mod calls;
pub mod lazy_metadata;
pub mod metadata;
pub mod releases;
pub mod token;

use solana_program_error::ProgramError;

use crate::{
    Case, Family, HarnessError, Input, Program,
    frameworks::anchor2::{calls::EVENT_IX_TAG, discriminator},
};

/// This oracle's framework, by its name in `programs/frameworks.toml`.
pub const ORACLE: super::Oracle = super::Oracle {
    name: "anchor1",
    expected,
    cases,
};

/// `InstructionFallbackNotFound`: no handler's discriminator leads the data.
pub const FALLBACK_NOT_FOUND: ProgramError = ProgramError::Custom(101);
/// `InstructionDidNotDeserialize`: the arguments do not decode.
pub const DID_NOT_DESERIALIZE_ARGS: ProgramError = ProgramError::Custom(102);
/// `EventInstructionStub`: data led by Anchor's event tag, in a program
/// built without `event-cpi`.
pub const EVENT_INSTRUCTION_STUB: ProgramError = ProgramError::Custom(1500);
/// `ConstraintMut`: a `mut` account passed read-only.
pub const CONSTRAINT_MUT: ProgramError = ProgramError::Custom(2000);
/// `ConstraintHasOne`: the `has_one` constraint failed.
pub const CONSTRAINT_HAS_ONE: ProgramError = ProgramError::Custom(2001);
/// `ConstraintSigner`: the event authority did not sign the self-CPI.
pub const CONSTRAINT_SIGNER: ProgramError = ProgramError::Custom(2002);
/// `ConstraintAddress`: account [1] is not the event authority.
pub const CONSTRAINT_ADDRESS: ProgramError = ProgramError::Custom(2012);
/// `AccountDiscriminatorNotFound`: data shorter than the discriminator.
pub const DISCRIMINATOR_NOT_FOUND: ProgramError = ProgramError::Custom(3001);
/// `AccountDiscriminatorMismatch`.
pub const DISCRIMINATOR_MISMATCH: ProgramError = ProgramError::Custom(3002);
/// `AccountDidNotDeserialize`: the record is not there whole.
pub const DID_NOT_DESERIALIZE: ProgramError = ProgramError::Custom(3003);
/// `AccountNotEnoughKeys`: fewer accounts than the handler's struct.
pub const NOT_ENOUGH_KEYS: ProgramError = ProgramError::Custom(3005);
/// `AccountOwnedByWrongProgram`.
pub const OWNED_BY_WRONG_PROGRAM: ProgramError = ProgramError::Custom(3007);

pub use super::{ABORTS, HEAP, HEAP_BAND, MAY_ABORT, string_claim};

/// Anchor 1.x's answer to data that no handler's discriminator leads:
/// `EventInstructionStub` for Anchor's event tag (in a program built
/// without `event-cpi`), else `InstructionFallbackNotFound`.
pub fn no_handler(instruction_data: &[u8]) -> ProgramError {
    if instruction_data.starts_with(&EVENT_IX_TAG) {
        EVENT_INSTRUCTION_STUB
    } else {
        FALLBACK_NOT_FOUND
    }
}

/// The account discriminator of `record_type` at the start of `data`, as
/// Anchor 1.x checks it: under 8 bytes `AccountDiscriminatorNotFound`,
/// another `AccountDiscriminatorMismatch`.
pub fn check_discriminator(data: &[u8], record_type: &str) -> Result<(), ProgramError> {
    let tag = data.get(..8).ok_or(DISCRIMINATOR_NOT_FOUND)?;
    if tag == discriminator("account", record_type) {
        Ok(())
    } else {
        Err(DISCRIMINATOR_MISMATCH)
    }
}

/// What `input` must produce in an Anchor 1.x program.
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if calls::holds_calls(program) {
        return calls::expected(program, input);
    }
    match (program.family, program.name.as_str()) {
        (_, "noop") => token::expected_noop(input),
        (Family::Token, _) => token::expected(token::AccountType::of(program), input),
        (Family::Metadata, "metadata/lazy_account") => lazy_metadata::expected(input),
        (Family::Metadata, _) => metadata::expected(input),
        (Family::Message, _) => unreachable!("no Anchor 1.x program of the message family"),
    }
}

/// Each Anchor 1.x program's benchmark calls: the token family's three
/// operations (the floor's too), the metadata family's five on each
/// instance, and the arguments-and-events program's handlers.
pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for program in programs {
        match program.family {
            _ if calls::holds_calls(program) => cases.extend(calls::cases(program)),
            Family::Token => cases.extend(token::cases(program)),
            Family::Metadata => cases.extend(metadata::cases(program)),
            Family::Message => {
                return Err(HarnessError::Report(format!(
                    "{}: the message family has no Anchor 1.x contract",
                    program.label()
                )));
            }
        }
    }
    Ok(cases)
}
