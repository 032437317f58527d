//! The metadata record as a Steel account, at the fixed capacity the
//! project's bytemuck row holds it in (586 bytes: each string a length and
//! a byte array at its bound, each option a flag and a value, so the struct
//! has alignment 1): a `Pod` struct linked to its one-byte discriminator by
//! `account!`, borrowed in place by `as_account` / `as_account_mut`, which
//! check the account's program owner, its exact length and the
//! discriminator. The record's own bytes are checked with Steel's
//! `assert`s, only as far as each operation reads them.
//!
//! Instructions are Steel's: a one-byte tag (`parse_instruction`, the
//! family's op bytes), then `read_royalty`'s `instruction!` record (its
//! basis points, two little-endian bytes). `set_uri`'s uri, which no
//! `Pod` record can hold at its own length, is the bytes after the tag.
//! The contract is the metadata family's as Steel states it:
//! benches/src/frameworks/steel.rs, docs/frameworks.md.

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use steel::*;

// The harness loads it at Program::id_for("steel/metadata/account").
declare_id!("CJ5z25kbivnorxp2M1QR67x5ET9ENW8CyGn4XW6ywBEU");

/// `Key::MetadataV1`'s variant: the record's first byte.
const METADATA_V1: u8 = 4;

/// The program's account types, by discriminator.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Eq, PartialEq, IntoPrimitive, TryFromPrimitive)]
pub enum MetadataAccount {
    Metadata = 1,
}

/// A creator's slot.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Creator {
    pub address: Pubkey,
    pub verified: u8,
    pub share: u8,
}

/// The family's record at fixed capacity: 586 bytes, whatever it holds.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
pub struct Metadata {
    pub key: u8,
    pub update_authority: Pubkey,
    pub mint: Pubkey,
    pub name_len: u8,
    pub name: [u8; 32],
    pub symbol_len: u8,
    pub symbol: [u8; 10],
    pub uri_len: u8,
    pub uri: [u8; 200],
    pub seller_fee_basis_points: [u8; 2],
    pub creator_count: u8,
    pub creators: [Creator; 5],
    pub primary_sale_happened: u8,
    pub is_mutable: u8,
    pub has_edition_nonce: u8,
    pub edition_nonce: u8,
    pub has_token_standard: u8,
    pub token_standard: u8,
    pub has_collection: u8,
    pub collection_verified: u8,
    pub collection_key: Pubkey,
    pub has_uses: u8,
    pub use_method: u8,
    pub uses_remaining: [u8; 8],
    pub uses_total: [u8; 8],
    pub has_collection_details: u8,
    pub collection_details: u8,
    pub collection_details_value: [u8; 8],
    pub has_programmable_config: u8,
    pub programmable_config: u8,
    pub has_rule_set: u8,
    pub rule_set: Pubkey,
}

account!(MetadataAccount, Metadata);

const _: () = assert!(core::mem::size_of::<Metadata>() == 586);

/// The family's op bytes, for the operations this program runs.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Eq, PartialEq, TryFromPrimitive)]
pub enum MetadataInstruction {
    ReadRoyalty = 3,
    SetUri = 4,
}

/// `read_royalty`'s argument: the basis points the record must hold.
#[repr(C)]
#[derive(Clone, Copy, Debug, Pod, Zeroable)]
pub struct ReadRoyalty {
    pub bps: [u8; 2],
}

instruction!(MetadataInstruction, ReadRoyalty);

pub fn process_instruction(
    program_id: &Pubkey,
    accounts: &[AccountInfo],
    data: &[u8],
) -> ProgramResult {
    let (ix, args) = parse_instruction::<MetadataInstruction>(&ID, program_id, data)?;
    match ix {
        MetadataInstruction::ReadRoyalty => process_read_royalty(accounts, args),
        MetadataInstruction::SetUri => process_set_uri(accounts, args),
    }
}

/// Succeed if the record's royalty is the argument's.
fn process_read_royalty(accounts: &[AccountInfo], data: &[u8]) -> ProgramResult {
    let args = ReadRoyalty::try_from_bytes(data)?;
    let [record_info, _signer_info, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    record_info
        .as_account::<Metadata>(&ID)?
        .assert(|m| m.key == METADATA_V1)?
        .assert_err(
            |m| m.seller_fee_basis_points == args.bps,
            ProgramError::InvalidArgument,
        )?;
    Ok(())
}

/// Check the record (its key, its uri's length within the slot, the
/// mutable flag a bool), then the update authority, then that the record
/// is mutable and the new uri UTF-8 within its bound; write it in its slot
/// and zero what a shorter one frees.
fn process_set_uri(accounts: &[AccountInfo], uri: &[u8]) -> ProgramResult {
    let [record_info, authority_info, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let record = record_info
        .is_writable()?
        .as_account_mut::<Metadata>(&ID)?
        .assert_mut(|m| {
            m.key == METADATA_V1 && usize::from(m.uri_len) <= m.uri.len() && m.is_mutable <= 1
        })?
        .assert_mut_err(
            |m| m.update_authority == *authority_info.key,
            ProgramError::IncorrectAuthority,
        )?;
    let uri = match core::str::from_utf8(uri) {
        Ok(uri) if record.is_mutable == 1 && uri.len() <= record.uri.len() => uri.as_bytes(),
        _ => return Err(ProgramError::InvalidArgument),
    };
    let old_len = usize::from(record.uri_len);
    record.uri[..uri.len()].copy_from_slice(uri);
    if let Some(freed) = record.uri.get_mut(uri.len()..old_len) {
        freed.fill(0);
    }
    record.uri_len = uri.len() as u8;
    Ok(())
}

entrypoint!(process_instruction);
