//! The Hopper programs (`programs/hopper/`) on the harness side: the token
//! family's contract as Hopper states it (an oracle, as for every other
//! program) and the benchmark cases. Hopper 0.5.0's `#[program]`
//! dispatches on the one-byte `#[instruction(N)]`, so the instruction data
//! is the family's op byte; the record sits behind Hopper's 16-byte account
//! header: the discriminator (1), the layout version (1), two bytes of
//! flags, the layout's 8-byte fingerprint (`sha256` of its wire descriptor,
//! [`layout_id`]) and the schema epoch (1, a `u32`). Its checks, in its
//! order (read from the `#[program]` dispatch, `#[derive(Accounts)]`'s
//! binding and hopper-runtime's `validate_header`): no op byte or an
//! unknown one `InvalidInstructionData`; fewer than two accounts
//! `NotEnoughAccountKeys`; for a write, a read-only account `Immutable`;
//! an account another program owns `IncorrectProgramId`; data shorter
//! than the header and the record `AccountDataTooSmall` (a longer account
//! is accepted: the `at_least` shape); another discriminator, version or
//! layout id, or a schema epoch other than 1 (or 0, Hopper's legacy 1),
//! `InvalidAccountData` (the flags are not read); for `full` and
//! `read_owner`, another owner (`has_one`) `InvalidAccountData`.

use common::token::Operation;
use sha2::{Digest, Sha256};
use solana_program_error::ProgramError;

use crate::{Case, HarnessError, Input, Program, token::record::ACCOUNT_LEN};

const HEADER_LEN: usize = 16;
const OWNER: std::ops::Range<usize> = HEADER_LEN + 32..HEADER_LEN + 64;

/// The record's fields and their wire stems, in order, as `#[account]`
/// fingerprints them.
const FIELDS: [(&str, &str); 9] = [
    ("mint", "Address"),
    ("owner", "Address"),
    ("amount", "WireU64"),
    ("delegate", "Address"),
    ("state", "u8"),
    ("padding", "arr_u8_7"),
    ("native_amount", "WireU64"),
    ("delegated_amount", "WireU64"),
    ("close_authority", "Address"),
];

/// The record's layout fingerprint: the first 8 bytes of `sha256` of its
/// wire descriptor (`hopper:wire:v2|S:<name>|V:<version>|f<i>:<field>:<stem>`).
pub fn layout_id() -> [u8; 8] {
    let mut descriptor = String::from("hopper:wire:v2|S:TokenRecord|V:1");
    for (i, (field, stem)) in FIELDS.iter().enumerate() {
        descriptor.push_str(&format!("|f{i}:{field}:{stem}"));
    }
    Sha256::digest(descriptor)[..8]
        .try_into()
        .expect("eight bytes")
}

/// The record's 16-byte header.
pub fn header() -> [u8; HEADER_LEN] {
    let mut header = [0u8; HEADER_LEN];
    header[0] = 1;
    header[1] = 1;
    header[4..12].copy_from_slice(&layout_id());
    header[12..16].copy_from_slice(&1u32.to_le_bytes());
    header
}

/// The account's data: the header, then the family's record.
pub fn account(raw: &[u8]) -> Vec<u8> {
    [&header()[..], raw].concat()
}

/// The benchmark call of `operation`: the family's op byte, the fixture
/// behind the header, its owner, both accounts, account [0] writable.
pub fn valid_input(operation: Operation) -> Input {
    super::token_input(vec![operation as u8], account)
}

pub fn cases(programs: &[Program]) -> Result<Vec<Case>, HarnessError> {
    super::cases(
        programs,
        &super::Calls {
            framework: "Hopper",
            token: valid_input,
            metadata: None,
        },
    )
}

/// What a Hopper program must do with `input` (the module's contract; the
/// floor succeeds wherever the op byte and the accounts do).
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    let operation = super::op_byte(input, ProgramError::InvalidInstructionData)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    if program.name == "noop" {
        return Ok(input.data.clone());
    }
    if operation.writes() && !input.writable {
        return Err(ProgramError::Immutable);
    }
    let data = &input.data;
    if data.len() < HEADER_LEN + ACCOUNT_LEN {
        return Err(ProgramError::AccountDataTooSmall);
    }
    // The discriminator, the version and the layout id; the flags (bytes
    // 2 and 3) are not compared, and a schema epoch of 0 is Hopper's
    // legacy spelling of 1.
    let header = header();
    let epoch = u32::from_le_bytes(data[12..HEADER_LEN].try_into().expect("four bytes"));
    if data[..2] != header[..2] || data[4..12] != header[4..12] || !matches!(epoch, 0 | 1) {
        return Err(ProgramError::InvalidAccountData);
    }
    if operation != Operation::UpdateAmount && data[OWNER] != input.owner_key {
        return Err(ProgramError::InvalidAccountData);
    }
    if !operation.writes() {
        return Ok(data.clone());
    }
    Ok(super::written(data, HEADER_LEN))
}
