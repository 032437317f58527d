//! The metadata family's record as Anchor 2 instruction arguments and as
//! its events. Every handler takes the record as its argument (Anchor
//! decodes it with wincode in borsh's format) and stores its
//! `seller_fee_basis_points` in account [0]; the `emit_*` handlers then
//! emit the record as an event, one way each: `#[event]` (wincode),
//! Anchor 1.x's `emit!` (borsh) and `emit_cpi!` (the `#[event]` bytes in a
//! self-CPI). Its strings rule out `#[event(bytemuck)]`. So each emit's
//! cost is its handler's minus `set_record`'s. The contract is Anchor's:
//! benches/src/frameworks/anchor2/calls.rs, docs/frameworks.md.
#![no_std]

extern crate alloc;

use alloc::{string::String, vec::Vec};

use anchor_lang::prelude::*;
use anchor2_records::{
    Collection, CollectionDetails, Creator, Key, ProgrammableConfig, TokenStandard, Uses, store,
};
use borsh::BorshSerialize;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor2/metadata/args_and_events").
declare_id!("PRyvuBchcPHfeqtVAVQdMWvd68gwmY8P9tos1eG13in");

/// The metadata record as Anchor 2's default event: `AnchorSerialize` is
/// wincode in borsh's format.
#[event]
#[derive(AnchorDeserialize, BorshSerialize)]
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
pub mod metadata_args_and_events {
    use super::*;

    /// The record as arguments: store its royalty.
    pub fn set_record(ctx: &mut Context<Store>, record: Metadata) -> Result<()> {
        store(
            &ctx.accounts.out,
            &record.seller_fee_basis_points.to_le_bytes(),
        )
    }

    /// `set_record`, then `emit!` of the `#[event]` record.
    pub fn emit_event(ctx: &mut Context<Store>, record: Metadata) -> Result<()> {
        store(
            &ctx.accounts.out,
            &record.seller_fee_basis_points.to_le_bytes(),
        )?;
        emit!(record);
        Ok(())
    }

    /// `set_record`, then the record logged as Anchor 1.x's `emit!` logs
    /// it: the discriminator and borsh's encoding in a `Vec` with room for
    /// 256 bytes.
    pub fn emit_borsh(ctx: &mut Context<Store>, record: Metadata) -> Result<()> {
        store(
            &ctx.accounts.out,
            &record.seller_fee_basis_points.to_le_bytes(),
        )?;
        let mut data = Vec::with_capacity(256);
        data.extend_from_slice(Metadata::DISCRIMINATOR);
        record
            .serialize(&mut data)
            .map_err(|_| ProgramError::InvalidArgument)?;
        anchor_lang::sol_log_data(&[&data]);
        Ok(())
    }

    /// `set_record`, then `emit_cpi!` of the `#[event]` record.
    pub fn emit_cpi(ctx: &mut Context<StoreEmitCpi>, record: Metadata) -> Result<()> {
        store(
            &ctx.accounts.out,
            &record.seller_fee_basis_points.to_le_bytes(),
        )?;
        emit_cpi!(record);
        Ok(())
    }
}

#[derive(Accounts)]
pub struct Store {
    #[account(mut)]
    pub out: UncheckedAccount,
}

#[event_cpi]
#[derive(Accounts)]
pub struct StoreEmitCpi {
    #[account(mut)]
    pub out: UncheckedAccount,
}

anchor_lang::pinocchio::nostd_panic_handler!();
