//! The metadata record as a Hopper account, at the fixed capacity the
//! project's bytemuck row holds it in (586 bytes, each string a length and
//! a byte array at its bound, each option a flag and a value, the creators
//! a `#[hopper::pod]` slot each), behind Hopper's 16-byte header: a
//! headered `#[account]` held by `Account<'info, T>` in
//! `#[derive(Accounts)]` contexts, which check the owner program, the
//! length and the header, and the update authority with `has_one`. The
//! handlers check the record's own bytes only as far as each reads them.
//!
//! Handlers are `#[program]` instructions on the family's op bytes, their
//! arguments Hopper's: `read_royalty`'s `u16` (two little-endian bytes,
//! exactly) and `set_uri`'s `&[u8]` (the bytes after the op byte), decoded
//! before the accounts are bound. The contract is the metadata family's as
//! Hopper states it: benches/src/frameworks/hopper.rs, docs/frameworks.md.
#![no_std]

use hopper::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// No heap (nothing here allocates), and a panic aborts: Hopper's own
// no_std setup.
#[cfg(target_os = "solana")]
mod sbf {
    hopper::no_allocator!();
    hopper::nostd_panic_handler!();
}

// The harness loads it at Program::id_for("hopper/metadata/account").
hopper::declare_id!("97t3qJHeixjW8VAJVDNhWGmyHaHabHpEvzUhg9QRwyBr");

/// `Key::MetadataV1`'s variant: the record's first byte.
const METADATA_V1: u8 = 4;

/// A creator's slot.
#[hopper::pod]
#[derive(Clone, Copy)]
#[repr(C)]
pub struct Creator {
    pub address: Address,
    pub verified: u8,
    pub share: u8,
}

/// The family's record at fixed capacity: 586 bytes, whatever it holds.
#[derive(Clone, Copy)]
#[repr(C)]
#[account(discriminator = 1, version = 1)]
pub struct Metadata {
    pub key: u8,
    pub update_authority: Address,
    pub mint: Address,
    pub name_len: u8,
    pub name: [u8; 32],
    pub symbol_len: u8,
    pub symbol: [u8; 10],
    pub uri_len: u8,
    pub uri: [u8; 200],
    pub seller_fee_basis_points: WireU16,
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
    pub collection_key: Address,
    pub has_uses: u8,
    pub use_method: u8,
    pub uses_remaining: WireU64,
    pub uses_total: WireU64,
    pub has_collection_details: u8,
    pub collection_details: u8,
    pub collection_details_value: WireU64,
    pub has_programmable_config: u8,
    pub programmable_config: u8,
    pub has_rule_set: u8,
    pub rule_set: Address,
}

const _: () = assert!(core::mem::size_of::<Metadata>() == 586);

#[derive(Accounts)]
pub struct Read<'info> {
    pub record: Account<'info, Metadata>,
    pub signer: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct Authorized<'info> {
    #[account(mut, has_one = update_authority)]
    pub record: Account<'info, Metadata>,
    pub update_authority: UncheckedAccount<'info>,
}

#[program]
mod metadata_program {
    use super::*;

    /// Succeed if the record's royalty is `bps`.
    #[instruction(3)]
    pub fn read_royalty(ctx: Ctx<Read>, bps: u16) -> ProgramResult {
        let record = ctx.accounts.record.get()?;
        if record.key != METADATA_V1 {
            return Err(ProgramError::InvalidAccountData);
        }
        if record.seller_fee_basis_points.get() != bps {
            return Err(ProgramError::InvalidArgument);
        }
        Ok(())
    }

    /// Check the record (its key, its uri's length within the slot, the
    /// mutable flag a bool), then that it is mutable and the new uri UTF-8
    /// within its bound; write it in its slot and zero what a shorter one
    /// frees.
    #[instruction(4)]
    pub fn set_uri(ctx: Ctx<Authorized>, uri: &[u8]) -> ProgramResult {
        let mut record = ctx.accounts.record.get_mut()?;
        let old_len = usize::from(record.uri_len);
        if record.key != METADATA_V1 || old_len > record.uri.len() || record.is_mutable > 1 {
            return Err(ProgramError::InvalidAccountData);
        }
        match core::str::from_utf8(uri) {
            Ok(uri) if record.is_mutable == 1 && uri.len() <= record.uri.len() => {}
            _ => return Err(ProgramError::InvalidArgument),
        }
        record.uri[..uri.len()].copy_from_slice(uri);
        if let Some(freed) = record.uri.get_mut(uri.len()..old_len) {
            freed.fill(0);
        }
        record.uri_len = uri.len() as u8;
        Ok(())
    }
}
