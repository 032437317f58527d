//! Where each family (and each other framework, by its oracle) plugs into
//! the shared stages: its contract's outcome for a call, and its benchmark
//! cases. Adding a family adds an arm here; a framework adds its oracle
//! (`frameworks::oracle`).

use common::token::Operation;
use solana_program_error::ProgramError;

use crate::{Case, Family, Framework, HarnessError, Input, Program, frameworks, message, metadata};

impl Case {
    /// The case for one call of `program`, with its outcome from the
    /// program's family contract.
    pub fn new(program: &Program, operation: impl Into<String>, input: &Input) -> Self {
        Self::with_outcome(program, operation, input, expected(program, input))
    }

    /// [`Case::new`], once the contract is known to say `want` for it: a
    /// test's written-out answer, checked against the oracle first.
    pub fn expecting(
        program: &Program,
        operation: &str,
        input: &Input,
        want: Result<Vec<u8>, ProgramError>,
    ) -> Result<Self, String> {
        let oracle = expected(program, input);
        if oracle != want {
            return Err(format!(
                "{}: {operation}: the oracle says {oracle:?}, the test {want:?}",
                program.label()
            ));
        }
        Ok(Self::new(program, operation, input))
    }
}

/// What the program's family contract says `input` must produce.
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if let Some(oracle) = frameworks::oracle(program.framework) {
        return (oracle.expected)(program, input);
    }
    match program.family {
        Family::Token => input.expected(program.shape, program.encoding),
        Family::Message => message::expected(message::format_of(program), input),
        Family::Metadata => metadata::expected(metadata::format_of(program), input),
    }
}

/// The benchmark cases: each program's valid call of each operation (and,
/// in the message family, at each size; in the metadata family, on each
/// instance).
pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for program in programs {
        match program.family {
            Family::Token => cases.extend(
                Operation::ALL
                    .map(|op| Case::new(program, op.name(), &Input::valid(op, program.encoding))),
            ),
            Family::Message => cases.extend(message::cases(program)?),
            Family::Metadata => cases.extend(metadata::cases(program)?),
        }
    }
    Ok(cases)
}

/// The benchmark cases of other frameworks' programs, each by its
/// framework's contract.
pub fn framework_cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for framework in Framework::others() {
        let own: Vec<Program> = programs
            .iter()
            .filter(|p| p.framework == framework)
            .cloned()
            .collect();
        let oracle = frameworks::oracle(framework)
            .unwrap_or_else(|| panic!("{framework}: a framework without an oracle"));
        cases.extend((oracle.cases)(&own)?);
    }
    Ok(cases)
}
