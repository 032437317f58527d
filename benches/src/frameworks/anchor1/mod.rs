//! The Anchor 1.x programs (`programs/anchor1/`, anchor-lang 1.2.2) on the
//! harness side: the token family's contract as Anchor 1.x states it (an
//! oracle, as for every program) and the benchmark cases. The
//! discriminators are Anchor's, as in Anchor 2 (`global:<instruction>`,
//! `account:<Type>`); the errors are Anchor 1.x's own `ErrorCode`s,
//! returned as `Custom(code)`.

pub mod calls;
pub mod token;

use solana_program_error::ProgramError;

use crate::{Case, Family, HarnessError, Input, Program};

/// `InstructionFallbackNotFound`: no handler's discriminator leads the data.
pub const FALLBACK_NOT_FOUND: ProgramError = ProgramError::Custom(101);
/// `EventInstructionStub`: data led by Anchor's event tag, in a program
/// built without `event-cpi`.
pub const EVENT_INSTRUCTION_STUB: ProgramError = ProgramError::Custom(1500);
/// `ConstraintMut`: a `mut` account passed read-only.
pub const CONSTRAINT_MUT: ProgramError = ProgramError::Custom(2000);
/// `ConstraintHasOne`: the `has_one` constraint failed.
pub const CONSTRAINT_HAS_ONE: ProgramError = ProgramError::Custom(2001);
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

/// What `input` must produce in an Anchor 1.x program.
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if calls::holds_calls(program) {
        return calls::expected(program, input);
    }
    match (program.family, program.name.as_str()) {
        (_, "noop") => token::expected_noop(input),
        (Family::Token, _) => token::expected(token::AccountType::of(program), input),
        (family, _) => unreachable!("no Anchor 1.x contract for the {family:?} family"),
    }
}

/// Each Anchor 1.x program's benchmark calls: the token family's three
/// operations (the floor's too), and the arguments-and-events program's
/// handlers.
pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for program in programs {
        if program.family != Family::Token {
            return Err(HarnessError::Report(format!(
                "{}: only the token family has an Anchor 1.x contract",
                program.label()
            )));
        }
        if calls::holds_calls(program) {
            cases.extend(calls::cases(program));
        } else {
            cases.extend(token::cases(program));
        }
    }
    Ok(cases)
}
