//! The token record as Anchor 1.x instruction arguments and as its event.
//! Every handler takes the record's fields as its argument (Anchor decodes
//! them with borsh) and stores `close_authority` in account [0], as an
//! instruction that sets state does; `emit_event` then logs the record
//! with `emit!`, `emit_cpi` passes it to the program itself with
//! `emit_cpi!`. So each emit's cost is its handler's minus `set_record`'s.
//! The contract is Anchor 1.x's: benches/src/frameworks/anchor1/calls.rs,
//! docs/frameworks.md.

use anchor1_records::store;
use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor1/token/args_and_events").
declare_id!("7XakrqwbNzAF6AS7DPDxjsU786iUFzkkMqwNMpu9KZxx");

/// The token record (the family's 160 bytes, which are also its borsh
/// encoding) as an event: `#[event]` derives borsh's traits.
#[event]
pub struct TokenRecord {
    pub mint: Pubkey,
    pub owner: Pubkey,
    pub amount: u64,
    pub delegate: Pubkey,
    pub state: u8,
    pub padding: [u8; 7],
    pub native_amount: u64,
    pub delegated_amount: u64,
    pub close_authority: Pubkey,
}

#[program]
pub mod token_args_and_events {
    use super::*;

    /// The record as arguments: store its `close_authority`.
    pub fn set_record(ctx: Context<Store>, record: TokenRecord) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())
    }

    /// `set_record`, then `emit!` of the record.
    pub fn emit_event(ctx: Context<Store>, record: TokenRecord) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())?;
        emit!(record);
        Ok(())
    }

    /// `set_record`, then `emit_cpi!` of the record.
    pub fn emit_cpi(ctx: Context<StoreEmitCpi>, record: TokenRecord) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())?;
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
