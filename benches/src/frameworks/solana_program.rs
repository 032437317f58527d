//! The token family's programs on solana-program's entrypoint (the same
//! program folders built with `common/solana-program`; `common/src/native.rs`)
//! on the harness side. The dispatch is the family's, check for check, so
//! the contract is the family's own in the `exact` shape
//! (`benches/src/token/contract.rs`); the floor (`benches/noop`) makes the
//! dispatch's checks and changes nothing.

use common::token::Operation;
use solana_program_error::ProgramError;

use crate::{Case, Family, HarnessError, Input, Program, program::Shape};

/// This oracle's framework, by its name in `programs/frameworks.toml`.
pub const ORACLE: super::Oracle = super::Oracle {
    name: "solana-program",
    expected,
    cases,
};

/// What a solana-program token program (or the floor) must do with
/// `input`.
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if program.name != "noop" {
        return input.expected(Shape::Exact, program.encoding);
    }
    // The floor: the dispatch's checks in its order, operations that do
    // nothing.
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    let operation = Operation::from_instruction_data(&input.instruction_data)?;
    if input.data.len() != program.encoding.account_len() {
        return Err(ProgramError::InvalidAccountData);
    }
    if operation.writes() && !input.writable {
        return Err(ProgramError::Immutable);
    }
    Ok(input.data.clone())
}

/// Each program's valid call of each operation, in its encoding.
pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for program in programs {
        if program.family != Family::Token {
            return Err(HarnessError::Report(format!(
                "{}: only the token family is built on solana-program's entrypoint",
                program.label()
            )));
        }
        cases.extend(
            Operation::ALL
                .map(|op| Case::new(program, op.name(), &Input::valid(op, program.encoding))),
        );
    }
    Ok(cases)
}
