//! The message family's contract (docs/message.md) as an
//! oracle: each operation's valid call, and what any call must produce.

use common::message::{HostFormat, MAX_KEYS, Message, host_format};
use solana_program_error::ProgramError;

use crate::{HarnessError, Input, Program};

/// The instruction data of each operation's valid call on `message`.
pub fn instruction_data(operation: &str, message: &Message) -> Vec<u8> {
    let middle = message.instructions.len() / 2;
    match operation {
        "full" => vec![0],
        "read_blockhash" => [&[1][..], &message.recent_blockhash].concat(),
        "sanitize" => vec![2],
        "read_instruction" => [
            &[3][..],
            &(middle as u16).to_le_bytes(),
            &message.instructions[middle].data,
        ]
        .concat(),
        "push_key" => vec![4],
        other => panic!("no message operation `{other}`"),
    }
}

/// The valid call of `operation` on `message` in `format`: both accounts,
/// account [0] writable, account [1] the authority.
pub fn valid_input(format: &HostFormat, operation: &str, message: &Message) -> Input {
    Input {
        instruction_data: instruction_data(operation, message),
        account_count: 2,
        writable: true,
        data: (format.encode)(message),
        owner_key: message.authority,
    }
}

/// What a message program must do with `input`, from the spec's contract
/// and the format's host codec: account [0]'s data afterwards, or the
/// error. A format that validates less than the whole message may succeed
/// where this says `InvalidAccountData` (the property test allows that);
/// on valid encodings it is exact.
pub fn expected(format: &HostFormat, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    let bad_op = ProgramError::InvalidInstructionData;
    let (&op, rest) = input.instruction_data.split_first().ok_or(bad_op.clone())?;
    let too_short = match op {
        1 => rest.len() < 32,
        3 => rest.len() < 2,
        0 | 2 | 4 => false,
        _ => return Err(bad_op),
    };
    if too_short {
        return Err(bad_op);
    }
    if matches!(op, 0 | 4) && !input.writable {
        return Err(ProgramError::Immutable);
    }
    let mut message = (format.decode)(&input.data).ok_or(ProgramError::InvalidAccountData)?;
    let unchanged = Ok(input.data.clone());
    match op {
        0 | 4 if message.authority != input.owner_key => Err(ProgramError::IncorrectAuthority),
        0 => {
            message.nonce = message.nonce.wrapping_add(1);
            let after = (format.encode)(&message);
            // `full` writes the same length: where the bumped message's
            // encoding is not the account's length (postcard's varint nonce
            // changing width), the program refuses.
            if after.len() == input.data.len() {
                Ok(after)
            } else {
                Err(ProgramError::InvalidAccountData)
            }
        }
        4 if message.account_keys.len() >= MAX_KEYS => Err(ProgramError::InvalidArgument),
        4 => {
            message.account_keys.push(input.owner_key);
            Ok((format.encode)(&message))
        }
        1 if message.recent_blockhash[..] == rest[..32] => unchanged,
        1 => Err(ProgramError::InvalidArgument),
        2 => {
            let keys = message.account_keys.len();
            let valid = message.instructions.iter().all(|ix| {
                std::iter::once(&ix.program_id_index)
                    .chain(&ix.accounts)
                    .all(|&i| (i as usize) < keys)
            });
            if valid {
                unchanged
            } else {
                Err(ProgramError::InvalidAccountData)
            }
        }
        _ => {
            let index = u16::from_le_bytes([rest[0], rest[1]]) as usize;
            match message.instructions.get(index) {
                Some(ix) if ix.data[..] == rest[2..] => unchanged,
                _ => Err(ProgramError::InvalidArgument),
            }
        }
    }
}

/// The host codec of a message program.
///
/// # Panics
/// If there is none; [`host_codec`] says so as an error instead.
pub fn format_of(program: &Program) -> &'static HostFormat {
    host_codec(program).unwrap_or_else(|e| panic!("{e}"))
}

/// The host codec of a message program, or what to do without one.
pub fn host_codec(program: &Program) -> Result<&'static HostFormat, HarnessError> {
    program.host_codec(host_format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::message::instances::{OPERATIONS, instance};

    #[test]
    fn oracle_on_a_valid_call() {
        let borsh = host_format("borsh").unwrap();
        let message = instance(904);
        for op in OPERATIONS {
            let input = valid_input(borsh, op, &message);
            let expected = expected(borsh, &input).unwrap();
            let mut want = message.clone();
            match op {
                "full" => want.nonce += 1,
                "push_key" => want.account_keys.push(message.authority),
                _ => {}
            }
            assert_eq!(
                borsh::from_slice::<Message>(&expected).unwrap(),
                want,
                "{op}"
            );
        }
    }
}
