//! The token record as Anchor 1.x's `Account<T>`: `#[account]` keeps
//! borsh's bytes behind the 8-byte discriminator; Anchor checks the owner
//! program and the discriminator, decodes the whole record with borsh when
//! it loads the account, and encodes it back when a mutable one exits. The
//! owner check is Anchor 1.x's `has_one` constraint. The contract is the
//! token family's as Anchor 1.x states it: benches/src/frameworks/anchor1/,
//! docs/frameworks.md.

use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor1/token/account").
declare_id!("BezznsxmB11BdMVvVsptSdbUVSRJMkfJGTgidV4tiwWv");

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

#[account]
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
pub mod token_account {
    use super::*;

    /// Decode the record, check the owner, set `state` and `amount`,
    /// encode it back (on exit).
    pub fn full(ctx: Context<WriteOwned>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT;
        Ok(())
    }

    /// Decode the record, check the owner; write nothing.
    pub fn read_owner(_ctx: Context<ReadOwned>) -> Result<()> {
        Ok(())
    }

    /// Set `state` and `amount`, keeping every other field (decoded and
    /// encoded whole: the account type has no other way).
    pub fn update_amount(ctx: Context<Write>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT;
        Ok(())
    }
}

#[derive(Accounts)]
pub struct WriteOwned<'info> {
    #[account(mut, has_one = owner)]
    pub record: Account<'info, TokenRecord>,
    /// CHECK: the record's owner, checked by `has_one`.
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct ReadOwned<'info> {
    #[account(has_one = owner)]
    pub record: Account<'info, TokenRecord>,
    /// CHECK: the record's owner, checked by `has_one`.
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct Write<'info> {
    #[account(mut)]
    pub record: Account<'info, TokenRecord>,
    /// CHECK: not read by `update_amount`.
    pub owner: UncheckedAccount<'info>,
}
