//! The message family's benchmark cases, and the probe of what each
//! reading operation validates.

use solana_program_error::ProgramError;

use super::{
    contract::{format_of, host_codec, valid_input},
    instances::{OPERATIONS, SIZES, instance},
};
use crate::{Case, HarnessError, Program};

/// The benchmark cases of a message program: every operation at every
/// size, the valid call.
pub fn cases(program: &Program) -> Result<Vec<Case>, HarnessError> {
    let format = host_codec(program)?;
    Ok(SIZES
        .iter()
        .flat_map(|&size| {
            let message = instance(size);
            OPERATIONS.map(|op| {
                let input = valid_input(format, op, &message);
                Case::new(program, op, &input).with_size(size)
            })
        })
        .collect())
}

/// What a reading operation validates, found by running it: on the 904-byte
/// instance with its unread part damaged (`read_blockhash` and
/// `read_instruction`: the last byte cut off, in the last instruction;
/// `sanitize`: one trailing byte), does the program refuse the data
/// (`true`: it validates the whole message) or answer from the part it
/// reads (`false`)? `full` and `push_key` validate the whole message in
/// every format (the tests hold them to it).
pub fn validates_unread(
    program: &Program,
    mollusk: &mollusk_svm::Mollusk,
) -> Result<Vec<(&'static str, bool)>, crate::HarnessError> {
    let format = format_of(program);
    let message = instance(SIZES[1]);
    ["read_blockhash", "sanitize", "read_instruction"]
        .into_iter()
        .map(|op| {
            let mut input = valid_input(format, op, &message);
            if op == "sanitize" {
                input.data.push(0);
            } else {
                input.data.pop();
            }
            let mut case = Case::new(program, format!("{op} (damaged unread part)"), &input);
            case.expected = crate::Expected::Failure(ProgramError::InvalidAccountData);
            let result = mollusk.process_instruction(&case.instruction, &case.accounts);
            if case.check(&result).is_ok() {
                return Ok((op, true));
            }
            case.expected = crate::Expected::Success(input.data.clone());
            case.check(&result).map(|()| (op, false))
        })
        .collect()
}
