//! The message family on the harness side: the instances by size, the
//! contract as an oracle, and the benchmark cases.

use common::message::{HostFormat, Instruction, MAX_KEYS, Message, host_format};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use solana_program_error::ProgramError;

use crate::{Case, HarnessError, Input, Program};

/// Nominal sizes: the borsh encoding of each instance lands within 3% of
/// one. One small message (one instruction), then the sizes of the
/// reference study of RPC encodings.
pub const SIZES: [usize; 6] = [160, 904, 3232, 5400, 7448, 10136];

/// The operations, by op byte.
pub const OPERATIONS: [&str; 5] = common::message::Operation::NAMES;

/// How far an instance's borsh encoding may be from its nominal size.
pub const TOLERANCE: f64 = 0.03;

/// What the variable parts hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Content {
    /// The benchmark's instances: repeated program indices, a
    /// discriminator per program, amounts whose high bytes are zero.
    Realistic,
    /// The same shape with every index and data byte random: what does not
    /// compress.
    Random,
}

/// The instance of nominal `size` the benchmark measures: [`generate`]
/// with the size as the seed, realistic content.
pub fn instance(size: usize) -> Message {
    generate(size, size as u64, Content::Realistic)
}

/// A message of nominal `size`, deterministic for a `seed`. Keys are random
/// 32-byte values, the first one the authority; `accounts` hold 2-8
/// indices; `data` is 8 to 64 bytes. [`Content::Realistic`]: instructions
/// reuse the last three keys as programs, and `data` is an 8-byte
/// discriminator per program, then little-endian amounts below 10^9 (so
/// their high bytes are zero). [`Content::Random`]: any key as program,
/// random data bytes.
pub fn generate(size: usize, seed: u64, content: Content) -> Message {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let key_count = if size < 300 {
        2
    } else {
        (2 + size / 160).min(64)
    };
    let mut key = || -> [u8; 32] { rng.random() };
    let authority = key();
    let mut account_keys: Vec<[u8; 32]> = vec![authority];
    account_keys.extend((1..key_count).map(|_| key()));
    let programs: Vec<u8> = (key_count.saturating_sub(3)..key_count)
        .map(|i| i as u8)
        .collect();
    let discriminators: Vec<[u8; 8]> = programs.iter().map(|_| rng.random()).collect();
    let mut message = Message {
        authority,
        nonce: rng.random_range(0..1_000_000),
        account_keys,
        recent_blockhash: rng.random(),
        instructions: Vec::new(),
    };
    let high = (size as f64 * (1.0 + TOLERANCE)) as usize;
    let low = (size as f64 * (1.0 - TOLERANCE)) as usize;
    let mut len = borsh_len(&message);
    while len < low {
        let pick = rng.random_range(0..programs.len());
        let accounts = rng.random_range(2..=8usize);
        let amounts = rng.random_range(0..=7usize);
        let candidates = [(accounts, amounts), (2, 0)];
        let Some(ix) =
            candidates
                .iter()
                .map(|&(accounts, amounts)| {
                    // Same draws, in the same order, for realistic content.
                    let accounts = (0..accounts)
                        .map(|_| rng.random_range(0..key_count.max(2) as u8))
                        .collect();
                    match content {
                        Content::Realistic => Instruction {
                            program_id_index: programs[pick],
                            accounts,
                            data: discriminators[pick]
                                .into_iter()
                                .chain((0..amounts).flat_map(|_| {
                                    rng.random_range(0..1_000_000_000u64).to_le_bytes()
                                }))
                                .collect(),
                        },
                        Content::Random => Instruction {
                            program_id_index: rng.random_range(0..key_count as u8),
                            accounts,
                            data: (0..8 * (1 + amounts)).map(|_| rng.random()).collect(),
                        },
                    }
                })
                .find(|ix| len + ix_borsh_len(ix) <= high)
        else {
            break;
        };
        len += ix_borsh_len(&ix);
        message.instructions.push(ix);
    }
    message
}

fn ix_borsh_len(ix: &Instruction) -> usize {
    1 + 4 + ix.accounts.len() + 4 + ix.data.len()
}

fn borsh_len(message: &Message) -> usize {
    32 + 8
        + 4
        + 32 * message.account_keys.len()
        + 32
        + 4
        + message.instructions.iter().map(ix_borsh_len).sum::<usize>()
}

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
    host_format(&program.name).ok_or_else(|| HarnessError::NoHostCodec {
        program: program.label(),
        name: program.name.clone(),
    })
}

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instances_land_within_three_percent_of_their_size() {
        let borsh = host_format("borsh").unwrap();
        for size in SIZES {
            let message = instance(size);
            let len = (borsh.encode)(&message).len();
            assert_eq!(len, borsh_len(&message), "size {size}");
            let off = (len as f64 - size as f64).abs() / size as f64;
            assert!(off <= TOLERANCE, "size {size}: borsh {len} bytes");
            assert!(!message.instructions.is_empty());
            assert!(message.account_keys.len() < MAX_KEYS);
            assert_eq!(message, instance(size), "deterministic");
            let random = generate(size, 7, Content::Random);
            let len = (borsh.encode)(&random).len();
            let off = (len as f64 - size as f64).abs() / size as f64;
            assert!(off <= TOLERANCE, "random content, size {size}: {len} bytes");
        }
        assert_eq!(instance(160).instructions.len(), 1, "the small one");
    }

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
