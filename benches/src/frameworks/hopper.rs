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
//!
//! The metadata record (`programs/hopper/metadata/account`) is a headered
//! `#[account]` too, over the record at fixed capacity
//! ([`super::fixed_metadata`]; its fingerprint from its own fields,
//! [`METADATA_FIELDS`]). Its handlers' arguments are decoded first: the op
//! byte (3 `read_royalty`, 4 `set_uri`; any other is
//! `InvalidInstructionData`), then `read_royalty`'s `u16`, exactly two
//! bytes (`InvalidInstructionData` short or long), or `set_uri`'s `&[u8]`,
//! the rest; then the accounts are bound as for the token record
//! (`set_uri` a write, with `has_one = update_authority`:
//! `InvalidAccountData`); then the record's own checks, the family's
//! errors.

use common::{
    metadata::{FIXED_CAPACITY_LEN, Metadata},
    token::Operation,
};
use sha2::{Digest, Sha256};
use solana_program_error::ProgramError;

use super::fixed_metadata::{self, Call};
use crate::{
    Case, Family, HarnessError, Input, Program, metadata::instruction_data,
    token::record::ACCOUNT_LEN,
};

/// This oracle's framework, by its name in `programs/frameworks.toml`.
pub const ORACLE: super::Oracle = super::Oracle {
    name: "hopper",
    expected,
    cases,
};

const HEADER_LEN: usize = 16;
const OWNER: std::ops::Range<usize> = HEADER_LEN + 32..HEADER_LEN + 64;

/// A record's fields and their wire stems, in order, as `#[account]`
/// fingerprints them.
type Fields = [(&'static str, &'static str)];

/// The token record's.
const TOKEN_FIELDS: [(&str, &str); 9] = [
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

/// The metadata record's (`creators` an array of `#[hopper::pod]` slots).
pub const METADATA_FIELDS: [(&str, &str); 32] = [
    ("key", "u8"),
    ("update_authority", "Address"),
    ("mint", "Address"),
    ("name_len", "u8"),
    ("name", "arr_u8_32"),
    ("symbol_len", "u8"),
    ("symbol", "arr_u8_10"),
    ("uri_len", "u8"),
    ("uri", "arr_u8_200"),
    ("seller_fee_basis_points", "WireU16"),
    ("creator_count", "u8"),
    ("creators", "arr_Creator_5"),
    ("primary_sale_happened", "u8"),
    ("is_mutable", "u8"),
    ("has_edition_nonce", "u8"),
    ("edition_nonce", "u8"),
    ("has_token_standard", "u8"),
    ("token_standard", "u8"),
    ("has_collection", "u8"),
    ("collection_verified", "u8"),
    ("collection_key", "Address"),
    ("has_uses", "u8"),
    ("use_method", "u8"),
    ("uses_remaining", "WireU64"),
    ("uses_total", "WireU64"),
    ("has_collection_details", "u8"),
    ("collection_details", "u8"),
    ("collection_details_value", "WireU64"),
    ("has_programmable_config", "u8"),
    ("programmable_config", "u8"),
    ("has_rule_set", "u8"),
    ("rule_set", "Address"),
];

/// A record's layout fingerprint: the first 8 bytes of `sha256` of its
/// wire descriptor (`hopper:wire:v2|S:<name>|V:<version>|f<i>:<field>:<stem>`).
pub fn layout_id_of(name: &str, fields: &Fields) -> [u8; 8] {
    let mut descriptor = format!("hopper:wire:v2|S:{name}|V:1");
    for (i, (field, stem)) in fields.iter().enumerate() {
        descriptor.push_str(&format!("|f{i}:{field}:{stem}"));
    }
    Sha256::digest(descriptor)[..8]
        .try_into()
        .expect("eight bytes")
}

/// The token record's fingerprint.
pub fn layout_id() -> [u8; 8] {
    layout_id_of("TokenRecord", &TOKEN_FIELDS)
}

/// A record's 16-byte header: discriminator 1, version 1, no flags, its
/// fingerprint, schema epoch 1.
pub fn header_of(layout_id: [u8; 8]) -> [u8; HEADER_LEN] {
    let mut header = [0u8; HEADER_LEN];
    header[0] = 1;
    header[1] = 1;
    header[4..12].copy_from_slice(&layout_id);
    header[12..16].copy_from_slice(&1u32.to_le_bytes());
    header
}

/// The token record's header.
pub fn header() -> [u8; HEADER_LEN] {
    header_of(layout_id())
}

/// The metadata record's header.
pub fn metadata_header() -> [u8; HEADER_LEN] {
    header_of(layout_id_of("Metadata", &METADATA_FIELDS))
}

/// The benchmark call of a metadata `operation` on `metadata`: the
/// family's instruction data (Hopper's op byte and arguments are its
/// bytes), the record behind its header.
pub fn metadata_input(operation: &str, metadata: &Metadata) -> Input {
    let header = metadata_header();
    fixed_metadata::input(
        instruction_data(operation, metadata),
        &header,
        operation,
        metadata,
    )
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
            metadata: Some(|program| fixed_metadata::cases(program, HEADER_LEN, metadata_input)),
        },
    )
}

/// What a Hopper program must do with `input` (the module's contract; the
/// floor succeeds wherever the op byte and the accounts do).
pub fn expected(program: &Program, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if program.family == Family::Metadata {
        return expected_metadata(input);
    }
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
    check_header(data, &header())?;
    if operation != Operation::UpdateAmount && data[OWNER] != input.owner_key {
        return Err(ProgramError::InvalidAccountData);
    }
    if !operation.writes() {
        return Ok(data.clone());
    }
    Ok(super::written(data, HEADER_LEN))
}

/// The header's checks: the discriminator, the version and the layout id;
/// the flags (bytes 2 and 3) are not compared, and a schema epoch of 0 is
/// Hopper's legacy spelling of 1.
fn check_header(data: &[u8], header: &[u8; HEADER_LEN]) -> Result<(), ProgramError> {
    let epoch = u32::from_le_bytes(data[12..HEADER_LEN].try_into().expect("four bytes"));
    if data[..2] != header[..2] || data[4..12] != header[4..12] || !matches!(epoch, 0 | 1) {
        return Err(ProgramError::InvalidAccountData);
    }
    Ok(())
}

/// What the Hopper metadata program must do with `input`.
fn expected_metadata(input: &Input) -> Result<Vec<u8>, ProgramError> {
    let call = Call::parse_exact(&input.instruction_data)?;
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    if call.writes() && !input.writable {
        return Err(ProgramError::Immutable);
    }
    let data = &input.data;
    if data.len() < HEADER_LEN + FIXED_CAPACITY_LEN {
        return Err(ProgramError::AccountDataTooSmall);
    }
    check_header(data, &metadata_header())?;
    // `has_one = update_authority`.
    if call.writes() && data[HEADER_LEN + 1..HEADER_LEN + 33] != input.owner_key {
        return Err(ProgramError::InvalidAccountData);
    }
    fixed_metadata::apply(data, HEADER_LEN, &call, &input.owner_key)
}
