//! The frameworks beside pinocchio: the token family on solana-program's
//! entrypoint, and real programs built with the frameworks
//! `programs/frameworks.toml` declares, each framework's contract per
//! family as it states it (an oracle, as for the families' programs) and
//! its benchmark cases, one module each.

pub mod anchor1;
pub mod anchor2;
pub mod fixed_metadata;
pub mod hopper;
pub mod solana_program;
pub mod star_frame;
pub mod steel;
pub mod typhoon;

use common::token::{NEW_AMOUNT, NEW_STATE, Operation};

use solana_program_error::ProgramError;

use crate::{
    Case, Family, Framework, HarnessError, Input, Program,
    token::record::{Encoding, fixture_owner},
};

/// A framework's oracle: its contract per family (what a call must
/// produce) and its benchmark cases, for the framework of that name in
/// `programs/frameworks.toml`.
pub struct Oracle {
    pub name: &'static str,
    pub expected: fn(&Program, &Input) -> Result<Vec<u8>, ProgramError>,
    pub cases: fn(&[Program]) -> Result<Vec<Case>, HarnessError>,
}

impl Oracle {
    /// Its framework.
    pub fn framework(&self) -> Framework {
        Framework::named(self.name)
            .unwrap_or_else(|| panic!("{}: not in programs/frameworks.toml", self.name))
    }
}

/// Every framework's oracle beside pinocchio's (the families' own).
const ORACLES: [Oracle; 7] = [
    solana_program::ORACLE,
    anchor1::ORACLE,
    anchor2::ORACLE,
    typhoon::ORACLE,
    steel::ORACLE,
    star_frame::ORACLE,
    hopper::ORACLE,
];

/// `framework`'s oracle; `None` for pinocchio, whose programs the
/// families' oracles answer for.
pub fn oracle(framework: Framework) -> Option<&'static Oracle> {
    ORACLES.iter().find(|o| o.name == framework.name())
}

/// What the oracle answers where a program aborts instead of returning an
/// error: a panic in its framework's own code (Anchor 1.x's
/// `LazyAccount<T>` loaders slice the data unchecked) or an allocation the
/// heap cannot hold (borsh, in Anchor 1.x and star_frame arguments,
/// preallocates up to 1 MiB for a `String` whose length prefix claims more
/// than the data holds). No program error has this code, so a
/// test that meets it expects an abort (`SBF program panicked`).
pub const ABORTS: ProgramError = ProgramError::Custom(u32::MAX);
/// What the oracle answers where a `String`'s claimed length is within
/// [`HEAP_BAND`] below the heap: whether borsh's preallocation fits depends
/// on what the entrypoint and earlier decodes took from the heap, so the
/// program either aborts or refuses the bytes as they do not decode.
pub const MAY_ABORT: ProgramError = ProgramError::Custom(u32::MAX - 1);
/// solana-program's and pinocchio's allocators: 32 KiB (`HEAP_LENGTH`),
/// whatever frame the transaction requests.
pub const HEAP: usize = 32 * 1024;
/// How much of [`HEAP`] the oracle allows the entrypoint and earlier
/// decodes to have taken before a `String`'s preallocation.
pub const HEAP_BAND: usize = 2 * 1024;

/// What a `String` whose length prefix claims `len` bytes, more than the
/// data holds, does to borsh in a program on such an allocator: an allocation of
/// `min(len, 1 MiB)` bytes that aborts where it cannot fit, else the
/// decode's `error`.
pub fn string_claim(len: usize, error: ProgramError) -> ProgramError {
    let preallocated = len.min(1 << 20);
    if preallocated >= HEAP {
        ABORTS
    } else if preallocated >= HEAP - HEAP_BAND {
        MAY_ABORT
    } else {
        error
    }
}

/// A benchmark call of the token record: `instruction_data`, the
/// family's fixture as `account` lays it out, its owner, both accounts,
/// account [0] writable.
pub(crate) fn token_input(instruction_data: Vec<u8>, account: fn(&[u8]) -> Vec<u8>) -> Input {
    Input {
        instruction_data,
        account_count: 2,
        writable: true,
        data: account(&Encoding::Raw.fixture()),
        owner_key: fixture_owner(),
    }
}

/// The operation a one-byte instruction tag names (the family's op
/// bytes): no byte `InvalidInstructionData`, an unknown one `unknown`.
pub(crate) fn op_byte(input: &Input, unknown: ProgramError) -> Result<Operation, ProgramError> {
    let op = *input
        .instruction_data
        .first()
        .ok_or(ProgramError::InvalidInstructionData)?;
    Operation::ALL
        .into_iter()
        .find(|o| *o as u8 == op)
        .ok_or(unknown)
}

/// How a framework whose programs hold the token record (typhoon, Steel,
/// star_frame, Hopper), and for some the metadata record at fixed
/// capacity, lays out its benchmark calls.
pub(crate) struct Calls {
    /// The framework's name, for the refusal of a family it has no
    /// contract for.
    pub framework: &'static str,
    /// The call of a token operation.
    pub token: fn(Operation) -> Input,
    /// A metadata program's benchmark cases, where the framework has one.
    pub metadata: Option<fn(&Program) -> Vec<Case>>,
}

/// The benchmark cases of such a framework: each token program's call of
/// each operation, each metadata program's of each of its operations on
/// each instance.
pub(crate) fn cases(programs: &[Program], calls: &Calls) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for program in programs {
        match (program.family, calls.metadata) {
            (Family::Token, _) => cases
                .extend(Operation::ALL.map(|op| Case::new(program, op.name(), &(calls.token)(op)))),
            (Family::Metadata, Some(metadata)) => cases.extend(metadata(program)),
            _ => {
                return Err(HarnessError::Report(format!(
                    "{}: {}'s contract is written for the {} only",
                    program.label(),
                    calls.framework,
                    if calls.metadata.is_some() {
                        "token and metadata families"
                    } else {
                        "token family"
                    }
                )));
            }
        }
    }
    Ok(cases)
}

/// The account after a write of the token record that sits
/// `before_record` bytes in: `state` and `amount` set, all else kept.
pub(crate) fn written(data: &[u8], before_record: usize) -> Vec<u8> {
    let mut after = data.to_vec();
    after[before_record + 104] = NEW_STATE;
    after[before_record + 64..before_record + 72].copy_from_slice(&NEW_AMOUNT.to_le_bytes());
    after
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every framework beside pinocchio has an oracle, and every oracle a
    /// framework of `programs/frameworks.toml`, once.
    #[test]
    fn every_framework_has_one_oracle() {
        for framework in Framework::others() {
            let found = ORACLES
                .iter()
                .filter(|o| o.name == framework.name())
                .count();
            assert_eq!(found, 1, "{framework}: {found} oracles");
        }
        for oracle in &ORACLES {
            assert_ne!(oracle.framework(), Framework::PINOCCHIO);
        }
        assert!(oracle(Framework::PINOCCHIO).is_none());
    }
}
