//! The Anchor 2 programs (`programs/anchor2/`) on the harness side: Anchor's
//! discriminators, each family's contract as Anchor states it (an oracle,
//! as for the pinocchio programs), and the benchmark cases.
//!
//! Where Anchor's contract differs from the family's, Anchor's is the one
//! checked, and the difference is stated here and in docs/framework-contracts.md:
//! the record sits behind an 8-byte account discriminator; an instruction
//! is an 8-byte discriminator and its arguments in borsh's encoding;
//! Anchor's own errors (`Custom(2000)` for a read-only account that must be
//! writable, `Custom(2012)` for the `address` constraint that checks the
//! owner or authority, `AccountDataTooSmall`, `InvalidAccountData` for a
//! wrong discriminator or an undecodable record); a longer account is
//! accepted (the `at_least` shape).

pub mod calls;
pub mod metadata;
pub mod token;

use sha2::{Digest, Sha256};

use crate::{Case, Family, HarnessError, Program};

/// This oracle's framework, by its name in `programs/frameworks.toml`.
pub const ORACLE: super::Oracle = super::Oracle {
    name: "anchor2",
    expected,
    cases,
};

/// Anchor's discriminator of `<namespace>:<name>`: the first 8 bytes of its
/// sha256 (`global:<instruction>`, `account:<Type>`).
pub fn discriminator(namespace: &str, name: &str) -> [u8; 8] {
    let digest = Sha256::digest(format!("{namespace}:{name}"));
    digest[..8].try_into().expect("8 of 32 bytes")
}

/// The instruction discriminator of `operation`.
pub fn instruction(operation: &str) -> [u8; 8] {
    discriminator("global", operation)
}

/// What `input` must produce in an Anchor 2 program, by its family.
pub fn expected(
    program: &Program,
    input: &crate::Input,
) -> Result<Vec<u8>, solana_program_error::ProgramError> {
    if calls::holds_calls(program) {
        return calls::expected(program, input);
    }
    match (program.family, program.name.as_str()) {
        (_, "noop") => token::expected_noop(input),
        (Family::Token, _) => token::expected(token::AccountType::of(program), input),
        (Family::Metadata, _) => metadata::expected(input),
        (Family::Message, _) => unreachable!("no Anchor 2 program of the message family"),
    }
}

/// Each Anchor 2 program's benchmark calls: the token family's three
/// operations (the floor's too), the metadata family's five on each
/// instance, and each arguments-and-events program's handlers.
pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    let mut cases = Vec::new();
    for program in programs {
        if calls::holds_calls(program) {
            cases.extend(calls::cases(program));
            continue;
        }
        match program.family {
            Family::Token => cases.extend(token::cases(program)),
            Family::Metadata => cases.extend(metadata::cases(program)),
            Family::Message => {
                return Err(HarnessError::Report(format!(
                    "{}: the message family has no Anchor 2 contract",
                    program.label()
                )));
            }
        }
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Anchor's discriminators against values computed elsewhere (Python's
    /// hashlib): the harness and Anchor's derive must agree byte for byte.
    #[test]
    fn discriminators_are_sha256_prefixes() {
        assert_eq!(instruction("full"), 0xba977ec81b88af71_u64.to_be_bytes());
        assert_eq!(
            discriminator("account", "TokenRecord"),
            0x1bbb206489fd68f2_u64.to_be_bytes()
        );
        assert_ne!(instruction("full"), instruction("read_owner"));
        assert_ne!(
            discriminator("account", "TokenRecord"),
            discriminator("account", "Metadata")
        );
    }
}
