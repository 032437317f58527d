//! The metadata family's record as Anchor 2's `BorshAccount<T>`: borsh's
//! bytes behind Anchor's discriminator, decoded whole when Anchor loads the
//! account and encoded back when a mutable one exits (wincode in borsh's
//! wire format). The update authority is Anchor's `address` constraint;
//! each operation's own refusals are the family's `InvalidArgument`. The
//! record's bounds are not checked on load, as Anchor programs trust what
//! the discriminator admits; the rest of the contract is the family's as
//! Anchor states it: benches/src/anchor2/metadata.rs, docs/frameworks.md.
#![no_std]

extern crate alloc;

use alloc::{string::String, vec::Vec};

use anchor_lang::{BORSH_CONFIG, prelude::*, wincode};
use anchor2_records::{
    Collection, CollectionDetails, Creator, Key, ProgrammableConfig, TokenStandard, Uses,
};
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor2/metadata/borsh_account").
declare_id!("A4oADynq9GkkFE66vNMMvVLqBZczN6CQ7mq3KG63zRWo");

/// The most bytes a uri may hold (the family's `MAX_URI`).
const MAX_URI: usize = 200;

#[account(borsh)]
pub struct Metadata {
    pub key: Key,
    pub update_authority: Address,
    pub mint: Address,
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
pub mod metadata_borsh_account {
    use super::*;

    /// Check the update authority, set `primary_sale_happened`; the record
    /// is decoded on load and encoded on exit.
    pub fn full(ctx: &mut Context<Authorized>) -> Result<()> {
        ctx.accounts.record.primary_sale_happened = true;
        Ok(())
    }

    /// Succeed if the collection is set, verified and has this key.
    pub fn read_collection(ctx: &mut Context<Read>, key: Address) -> Result<()> {
        match &ctx.accounts.record.collection {
            Some(collection) if collection.verified && collection.key == key => Ok(()),
            _ => Err(ProgramError::InvalidArgument),
        }
    }

    /// Mark account [1] verified among the creators.
    pub fn verify_creator(ctx: &mut Context<VerifyCreator>) -> Result<()> {
        let creator = *ctx.accounts.creator.address();
        let found = ctx
            .accounts
            .record
            .creators
            .iter_mut()
            .flatten()
            .find(|c| c.address == creator)
            .ok_or(ProgramError::InvalidArgument)?;
        found.verified = true;
        Ok(())
    }

    /// Succeed if the royalty is `bps`.
    pub fn read_royalty(ctx: &mut Context<Read>, bps: u16) -> Result<()> {
        if ctx.accounts.record.seller_fee_basis_points == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    /// Check the update authority, then that the record is mutable and the
    /// uri within its bound (Anchor has checked it is UTF-8); replace it.
    /// Anchor encodes the record back on exit and writes as it goes, so a
    /// record that would no longer fit the account is refused here, before
    /// any byte is written, from its size with the new uri.
    pub fn set_uri(ctx: &mut Context<Authorized>, uri: String) -> Result<()> {
        let record = &mut ctx.accounts.record;
        if !record.is_mutable || uri.len() > MAX_URI {
            return Err(ProgramError::InvalidArgument);
        }
        let size = wincode::config::serialized_size(&**record, BORSH_CONFIG)
            .map_err(|_| ProgramError::InvalidAccountData)? as usize;
        let new_size = size - record.uri.len() + uri.len();
        if Metadata::DISCRIMINATOR.len() + new_size > record.account().data_len() {
            return Err(ProgramError::InvalidAccountData);
        }
        record.uri = uri;
        Ok(())
    }
}

#[derive(Accounts)]
pub struct Authorized {
    #[account(mut)]
    pub record: BorshAccount<Metadata>,
    #[account(address = record.update_authority)]
    pub authority: UncheckedAccount,
}

#[derive(Accounts)]
pub struct Read {
    pub record: BorshAccount<Metadata>,
    pub signer: UncheckedAccount,
}

#[derive(Accounts)]
pub struct VerifyCreator {
    #[account(mut)]
    pub record: BorshAccount<Metadata>,
    pub creator: UncheckedAccount,
}

anchor_lang::pinocchio::nostd_panic_handler!();
