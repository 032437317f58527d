//! The message family's instances: one deterministic message per nominal
//! size, and the generator behind them (also used by the wire report).

use common::message::{Instruction, Message};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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

#[cfg(test)]
mod tests {
    use super::*;
    use common::message::{MAX_KEYS, host_format};

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
}
