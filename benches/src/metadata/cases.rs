//! The metadata family's benchmark cases.

use super::{
    contract::{host_codec, valid_input},
    instances::{INSTANCES, OPERATIONS, instance},
};
use solana_program_error::ProgramError;

use crate::{Case, Expected, HarnessError, Program};

/// The benchmark cases of a metadata program: every operation on every
/// instance. On `minimal` (no creators, no collection) `verify_creator`
/// and `read_collection` are the contract's `InvalidArgument`: error-path
/// rows.
pub fn cases(program: &Program) -> Result<Vec<Case>, HarnessError> {
    let format = host_codec(program)?;
    Ok(INSTANCES
        .iter()
        .flat_map(|&name| {
            let metadata = instance(name);
            let encoded = (format.encode)(&metadata).len();
            OPERATIONS.map(|op| {
                let input = valid_input(format, op, &metadata);
                Case::new(program, op, &input).with_instance(name, encoded)
            })
        })
        .collect())
}

/// The reading operations the validation probe runs.
pub const PROBED: [&str; 3] = ["read_collection", "verify_creator", "read_royalty"];

/// What each reading operation validates, found by running it on the
/// `typical` instance with a byte of its name (which none of them needs)
/// made invalid UTF-8: does the program refuse the data (`true`: it
/// validates the whole record) or answer from the part it reads (`false`)?
/// `full` validates the whole record in every format (the tests hold it
/// to it), and `set_uri` at least the lengths and tags around the uri.
pub fn validates_unread(
    program: &Program,
    mollusk: &mollusk_svm::Mollusk,
) -> Result<Vec<(&'static str, bool)>, HarnessError> {
    let format = host_codec(program)?;
    let metadata = instance("typical");
    PROBED
        .into_iter()
        .map(|op| {
            let input = valid_input(format, op, &metadata);
            let mut damaged = input.clone();
            let name = metadata.name.as_bytes();
            let at = damaged
                .data
                .windows(name.len())
                .position(|w| w == name)
                .ok_or_else(|| {
                    HarnessError::Report(format!(
                        "{}: the name is not stored as its bytes",
                        program.label()
                    ))
                })?;
            damaged.data[at] = 0xff;
            let mut case = Case::new(program, format!("{op} (name not UTF-8)"), &damaged);
            case.expected = Expected::Failure(ProgramError::InvalidAccountData);
            let result = mollusk.process_instruction(&case.instruction, &case.accounts);
            if case.check(&result).is_ok() {
                return Ok((op, true));
            }
            // Answering from what it reads: what the valid call does.
            case.expected = match Case::new(program, op, &input).expected {
                Expected::Success(_) if op == "verify_creator" => {
                    let mut after = Case::new(program, op, &input).expected;
                    if let Expected::Success(data) = &mut after {
                        data[at] = 0xff;
                    }
                    after
                }
                Expected::Success(_) => Expected::Success(damaged.data.clone()),
                failure => failure,
            };
            case.check(&result).map(|()| (op, false))
        })
        .collect()
}
