//! The token record as Anchor 1.x's `LazyAccount<T>` (anchor-lang's
//! `lazy-account` feature): `#[account]` keeps borsh's bytes behind the
//! discriminator, and the account type decodes on demand: the generated
//! `load_<field>` / `load_mut_<field>` read one field (`has_one` loads
//! `owner` alone), while a mutable account is decoded whole and encoded
//! back when it exits, as anchor-lang's documentation says. The contract:
//! benches/src/frameworks/anchor1/, docs/frameworks.md.

use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor1/token/lazy_account").
declare_id!("HC9zZxgZefHtcpxX5EQ8TqoRQnHBQKgSRexHU6LCUqtg");

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
pub mod token_lazy_account {
    use super::*;

    /// Check the owner (its field alone), then set `state` and `amount`.
    pub fn full(ctx: Context<WriteOwned>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        *record.load_mut_state()? = NEW_STATE;
        *record.load_mut_amount()? = NEW_AMOUNT;
        Ok(())
    }

    /// Check the owner (its field alone); write nothing.
    pub fn read_owner(_ctx: Context<ReadOwned>) -> Result<()> {
        Ok(())
    }

    /// Set `state` and `amount`, keeping every other field.
    pub fn update_amount(ctx: Context<Write>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        *record.load_mut_state()? = NEW_STATE;
        *record.load_mut_amount()? = NEW_AMOUNT;
        Ok(())
    }
}

#[derive(Accounts)]
pub struct WriteOwned<'info> {
    #[account(mut, has_one = owner)]
    pub record: LazyAccount<'info, TokenRecord>,
    /// CHECK: the record's owner, checked by `has_one`.
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct ReadOwned<'info> {
    #[account(has_one = owner)]
    pub record: LazyAccount<'info, TokenRecord>,
    /// CHECK: the record's owner, checked by `has_one`.
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct Write<'info> {
    #[account(mut)]
    pub record: LazyAccount<'info, TokenRecord>,
    /// CHECK: not read by `update_amount`.
    pub owner: UncheckedAccount<'info>,
}
