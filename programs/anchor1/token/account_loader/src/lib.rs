//! The token record as Anchor 1.x's `AccountLoader<T>`:
//! `#[account(zero_copy)]` makes it a `repr(C)` bytemuck struct behind the
//! 8-byte discriminator, so loading it is a checked cast (`load`,
//! `load_mut`) and writing it a store in place; nothing is encoded on
//! exit. The record has no implicit padding, so its layout is the family's
//! 160 bytes. The owner check is Anchor 1.x's `has_one` constraint (which
//! loads the record). The contract: benches/src/frameworks/anchor1/,
//! docs/frameworks.md.

use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor1/token/account_loader").
declare_id!("HrihpMN2gyLbLMvaiF5deV2ZpoF9wEnA6agdoUcQyCPF");

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

#[account(zero_copy)]
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

const _: () = assert!(core::mem::size_of::<TokenRecord>() == 160);

#[program]
pub mod token_account_loader {
    use super::*;

    /// Check the owner, then set `state` and `amount` in place.
    pub fn full(ctx: Context<WriteOwned>) -> Result<()> {
        let mut record = ctx.accounts.record.load_mut()?;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT;
        Ok(())
    }

    /// Check the owner; write nothing.
    pub fn read_owner(_ctx: Context<ReadOwned>) -> Result<()> {
        Ok(())
    }

    /// Set `state` and `amount` in place, keeping every other byte.
    pub fn update_amount(ctx: Context<Write>) -> Result<()> {
        let mut record = ctx.accounts.record.load_mut()?;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT;
        Ok(())
    }
}

#[derive(Accounts)]
pub struct WriteOwned<'info> {
    #[account(mut, has_one = owner)]
    pub record: AccountLoader<'info, TokenRecord>,
    /// CHECK: the record's owner, checked by `has_one`.
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct ReadOwned<'info> {
    #[account(has_one = owner)]
    pub record: AccountLoader<'info, TokenRecord>,
    /// CHECK: the record's owner, checked by `has_one`.
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct Write<'info> {
    #[account(mut)]
    pub record: AccountLoader<'info, TokenRecord>,
    /// CHECK: not read by `update_amount`.
    pub owner: UncheckedAccount<'info>,
}
