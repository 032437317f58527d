//! The metadata record as Anchor 1.x instruction arguments and as its
//! event. Every handler takes the record as its argument (Anchor decodes it
//! with borsh) and stores `seller_fee_basis_points` in account [0];
//! `emit_event` then logs the record with `emit!`, `emit_cpi` passes it to
//! the program itself with `emit_cpi!`. The contract is Anchor 1.x's:
//! benches/src/frameworks/anchor1/calls.rs, docs/frameworks.md.

use anchor_lang::prelude::*;
// The record's `Key` under another name: the prelude's `Key` is the trait
// the accounts' derive calls `key()` through.
use anchor1_records::{
    store, Collection, CollectionDetails, Creator, Key as RecordKey, ProgrammableConfig,
    TokenStandard, Uses,
};
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor1/metadata/args_and_events").
declare_id!("F2pAx1dMCJBVFJC6QxcKivvCsn7eqvXdpqSgDsKprSLt");

/// The metadata family's record as an event: `#[event]` derives borsh's
/// traits.
#[event]
pub struct Metadata {
    pub key: RecordKey,
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
pub mod metadata_args_and_events {
    use super::*;

    /// The record as arguments: store its `seller_fee_basis_points`.
    pub fn set_record(ctx: Context<Store>, record: Metadata) -> Result<()> {
        store(
            &ctx.accounts.out,
            &record.seller_fee_basis_points.to_le_bytes(),
        )
    }

    /// `set_record`, then `emit!` of the record.
    pub fn emit_event(ctx: Context<Store>, record: Metadata) -> Result<()> {
        store(
            &ctx.accounts.out,
            &record.seller_fee_basis_points.to_le_bytes(),
        )?;
        emit!(record);
        Ok(())
    }

    /// `set_record`, then `emit_cpi!` of the record.
    pub fn emit_cpi(ctx: Context<StoreEmitCpi>, record: Metadata) -> Result<()> {
        store(
            &ctx.accounts.out,
            &record.seller_fee_basis_points.to_le_bytes(),
        )?;
        emit_cpi!(record);
        Ok(())
    }
}

#[derive(Accounts)]
pub struct Store<'info> {
    /// CHECK: the handlers write one field at its start.
    #[account(mut)]
    pub out: UncheckedAccount<'info>,
}

#[event_cpi]
#[derive(Accounts)]
pub struct StoreEmitCpi<'info> {
    /// CHECK: the handlers write one field at its start.
    #[account(mut)]
    pub out: UncheckedAccount<'info>,
}
