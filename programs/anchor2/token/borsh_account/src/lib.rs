//! The token record as Anchor 2's `BorshAccount<T>`: `#[account(borsh)]`
//! keeps borsh's bytes behind the discriminator; Anchor decodes the whole
//! record when it loads the account (with wincode, in borsh's wire format)
//! and encodes it back when a mutable one exits. The owner check is
//! Anchor's `address` constraint. The contract is the token family's as
//! Anchor states it: benches/src/anchor2/token.rs, docs/frameworks.md.
#![no_std]

use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor2/token/borsh_account").
declare_id!("7CosALuLDgkdmHGyu1ayqtLimbh1wXqA7dTCvC81PTU1");

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

#[account(borsh)]
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

#[program]
pub mod token_borsh_account {
    use super::*;

    /// Decode the record, check the owner, set `state` and `amount`,
    /// encode it back (on exit).
    pub fn full(ctx: &mut Context<WriteOwned>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT;
        Ok(())
    }

    /// Decode the record, check the owner; write nothing.
    pub fn read_owner(_ctx: &mut Context<ReadOwned>) -> Result<()> {
        Ok(())
    }

    /// Set `state` and `amount`, keeping every other field (decoded and
    /// encoded whole: the account type has no other way).
    pub fn update_amount(ctx: &mut Context<Write>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT;
        Ok(())
    }
}

#[derive(Accounts)]
pub struct WriteOwned {
    #[account(mut)]
    pub record: BorshAccount<TokenRecord>,
    #[account(address = record.owner)]
    pub owner: UncheckedAccount,
}

#[derive(Accounts)]
pub struct ReadOwned {
    pub record: BorshAccount<TokenRecord>,
    #[account(address = record.owner)]
    pub owner: UncheckedAccount,
}

#[derive(Accounts)]
pub struct Write {
    #[account(mut)]
    pub record: BorshAccount<TokenRecord>,
    pub owner: UncheckedAccount,
}

anchor_lang::pinocchio::nostd_panic_handler!();
