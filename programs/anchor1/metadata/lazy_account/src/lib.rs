//! The metadata family's record as Anchor 1.x's `LazyAccount<T>` (the
//! `lazy-account` feature): borsh's bytes behind Anchor's discriminator,
//! each field decoded when the handler loads it (`load_<field>`, its offset
//! found from the sizes of the fields before it), a mutable one loaded
//! field by field and encoded back (discriminator first, from byte 0) when
//! it exits.
//!
//! The record's `key` is its `u8` tag here (the same byte), not the
//! `Key` enum the other programs use: anchor-lang 1.2.2 sizes a field
//! whose type is an enum of unit variants by reading a tag from an empty
//! slice (its `Lazy` derive marks such an enum sized, and a sized field's
//! size is taken from `&[]`), so every load past such a field panics, on
//! any record (tried: `full` on `minimal` aborts with the enum, passes
//! with the byte). The update authority is Anchor 1.x's `has_one`
//! constraint; each operation's own refusals are the family's
//! `InvalidArgument`. The record's bounds are not checked on load, as
//! Anchor programs trust what the discriminator admits. The contract:
//! benches/src/frameworks/anchor1/metadata.rs, docs/frameworks.md.

use anchor1_records::{
    Collection, CollectionDetails, Creator, ProgrammableConfig, TokenStandard, Uses,
};
use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor1/metadata/lazy_account").
declare_id!("2YWDBmu5pPEaL2dbYHBcfRUnuxqcmCuBqL8hyY3TnwGh");

/// The most bytes a uri may hold (the family's `MAX_URI`).
const MAX_URI: usize = 200;

#[account]
pub struct Metadata {
    /// `Key`'s tag (see the module's documentation).
    pub key: u8,
    pub update_authority: Pubkey,
    pub mint: Pubkey,
    pub name: String,
    pub symbol: String,
    pub uri: String,
    pub seller_fee_basis_points: u16,
    pub creators: Option<Vec<Creator>>,
    pub primary_sale_happened: bool,
    pub is_mutable: bool,
    pub edition_nonce: Option<u8>,
    pub token_standard: Option<TokenStandard>,
    pub collection: Option<Collection>,
    pub uses: Option<Uses>,
    pub collection_details: Option<CollectionDetails>,
    pub programmable_config: Option<ProgrammableConfig>,
}

#[program]
pub mod metadata_lazy_account {
    use super::*;

    /// Check the update authority, set `primary_sale_happened`; the record
    /// is decoded on load and encoded on exit.
    pub fn full(ctx: Context<Authorized>) -> Result<()> {
        *ctx.accounts.record.load_mut_primary_sale_happened()? = true;
        Ok(())
    }

    /// Succeed if the collection is set, verified and has this key.
    pub fn read_collection(ctx: Context<Read>, key: Pubkey) -> Result<()> {
        match &*ctx.accounts.record.load_collection()? {
            Some(collection) if collection.verified && collection.key == key => Ok(()),
            _ => Err(ProgramError::InvalidArgument.into()),
        }
    }

    /// Mark account [1] verified among the creators.
    pub fn verify_creator(ctx: Context<VerifyCreator>) -> Result<()> {
        let creator = ctx.accounts.creator.key();
        let mut creators = ctx.accounts.record.load_mut_creators()?;
        let found = creators
            .iter_mut()
            .flatten()
            .find(|c| c.address == creator)
            .ok_or(ProgramError::InvalidArgument)?;
        found.verified = true;
        Ok(())
    }

    /// Succeed if the royalty is `bps`.
    pub fn read_royalty(ctx: Context<Read>, bps: u16) -> Result<()> {
        if *ctx.accounts.record.load_seller_fee_basis_points()? == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument.into())
        }
    }

    /// Check the update authority, then that the record is mutable and the
    /// uri within its bound (Anchor has checked it is UTF-8); replace it.
    /// Anchor encodes the record back on exit and writes as it goes, so a
    /// record that would no longer fit the account is refused here, before
    /// any byte is written, from its encoded size with the new uri.
    pub fn set_uri(ctx: Context<Authorized>, uri: String) -> Result<()> {
        let record = &ctx.accounts.record;
        if !*record.load_is_mutable()? || uri.len() > MAX_URI {
            return Err(ProgramError::InvalidArgument.into());
        }
        let size = anchor1_records::encoded_len(&*record.load()?)
            .map_err(|_| ProgramError::InvalidAccountData)?;
        let mut stored = record.load_mut_uri()?;
        let new_size = size - stored.len() + uri.len();
        if <Metadata as anchor_lang::Discriminator>::DISCRIMINATOR.len() + new_size
            > record.to_account_info().data_len()
        {
            return Err(ProgramError::InvalidAccountData.into());
        }
        *stored = uri;
        Ok(())
    }
}

#[derive(Accounts)]
pub struct Authorized<'info> {
    #[account(mut, has_one = update_authority)]
    pub record: LazyAccount<'info, Metadata>,
    /// CHECK: the record's update authority, checked by `has_one`.
    pub update_authority: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct Read<'info> {
    pub record: LazyAccount<'info, Metadata>,
    /// CHECK: not read by the reads.
    pub signer: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct VerifyCreator<'info> {
    #[account(mut)]
    pub record: LazyAccount<'info, Metadata>,
    /// CHECK: the creator to mark verified, looked up in the record.
    pub creator: UncheckedAccount<'info>,
}
