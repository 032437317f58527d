//! The token record as Anchor 2 instruction arguments and as its events.
//! Every handler takes the record's fields as its argument (Anchor decodes
//! them with wincode in borsh's format) and stores `close_authority` in
//! account [0], as an instruction that sets state does; the `emit_*`
//! handlers then emit the record as an event, one way each:
//! `#[event]` (wincode), `#[event(bytemuck)]` (one copy), Anchor 1.x's
//! `emit!` (borsh) and `emit_cpi!` (the `#[event]` bytes in a self-CPI).
//! So each emit's cost is its handler's minus `set_record`'s. The
//! contract is Anchor's: benches/src/frameworks/anchor2/calls.rs,
//! docs/frameworks.md.
#![no_std]

extern crate alloc;

use alloc::vec::Vec;

use anchor_lang::prelude::*;
use anchor2_records::store;
use borsh::BorshSerialize;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor2/token/args_and_events").
declare_id!("8oWoZsXBTXNVEULMd5bipF7uNCuvHuTtcpWkaNFizyuJ");

/// The token record (the family's 160 bytes, which are also its borsh
/// encoding) as Anchor 2's default event: `AnchorSerialize` is wincode.
#[event]
#[derive(AnchorDeserialize, BorshSerialize)]
pub struct TokenRecord {
    pub mint: Address,
    pub owner: Address,
    pub amount: u64,
    pub delegate: Address,
    pub state: u8,
    pub padding: [u8; 7],
    pub native_amount: u64,
    pub delegated_amount: u64,
    pub close_authority: Address,
}

/// The same record as `#[event(bytemuck)]`: `repr(C)` with no padding,
/// logged as its memory.
#[event(bytemuck)]
#[derive(AnchorSerialize, AnchorDeserialize)]
pub struct TokenRecordPod {
    pub mint: Address,
    pub owner: Address,
    pub amount: u64,
    pub delegate: Address,
    pub state: u8,
    pub padding: [u8; 7],
    pub native_amount: u64,
    pub delegated_amount: u64,
    pub close_authority: Address,
}

const _: () = assert!(core::mem::size_of::<TokenRecordPod>() == 160);

#[program]
pub mod token_args_and_events {
    use super::*;

    /// The record as arguments: store its `close_authority`.
    pub fn set_record(ctx: &mut Context<Store>, record: TokenRecord) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())
    }

    /// `set_record`, then `emit!` of the `#[event]` record.
    pub fn emit_event(ctx: &mut Context<Store>, record: TokenRecord) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())?;
        emit!(record);
        Ok(())
    }

    /// `set_record`, then `emit!` of the `#[event(bytemuck)]` record.
    pub fn emit_bytemuck(ctx: &mut Context<Store>, record: TokenRecordPod) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())?;
        emit!(record);
        Ok(())
    }

    /// `set_record`, then the record logged as Anchor 1.x's `emit!` logs
    /// it: the discriminator and borsh's encoding in a `Vec` with room for
    /// 256 bytes.
    pub fn emit_borsh(ctx: &mut Context<Store>, record: TokenRecord) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())?;
        let mut data = Vec::with_capacity(256);
        data.extend_from_slice(TokenRecord::DISCRIMINATOR);
        record
            .serialize(&mut data)
            .map_err(|_| ProgramError::InvalidArgument)?;
        anchor_lang::sol_log_data(&[&data]);
        Ok(())
    }

    /// `set_record`, then `emit_cpi!` of the `#[event]` record.
    pub fn emit_cpi(ctx: &mut Context<StoreEmitCpi>, record: TokenRecord) -> Result<()> {
        store(&ctx.accounts.out, record.close_authority.as_ref())?;
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
