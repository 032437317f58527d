//! The token record as Anchor 2's `Account<T>`: `#[account]` makes it a
//! zero-copy (bytemuck) struct behind Anchor's 8-byte discriminator, so
//! loading it is a checked pointer cast and writing it is a store in place.
//! Its integers are Anchor's alignment-1 `PodU64`, as Anchor's docs ask of
//! zero-copy accounts (the account data is only 1-aligned after the
//! discriminator in Anchor's layout rules); with them the record is the
//! family's 160-byte layout. The owner check is Anchor's `address`
//! constraint (its replacement for the deprecated `has_one`). The contract
//! is the token family's as Anchor states it (8-byte discriminators,
//! Anchor's errors and checks, a longer account accepted):
//! benches/src/anchor2/token.rs, docs/frameworks.md.
#![no_std]

use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor2/token/account").
declare_id!("2fX7hAWw8gvPH1jLha5UE79KoH6u4kof8nmjCVMNJLsR");

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

#[account]
pub struct TokenRecord {
    pub mint: Address,
    pub owner: Address,
    pub amount: PodU64,
    pub delegate: Address,
    pub state: u8,
    pub padding: [u8; 7],
    pub native_amount: PodU64,
    pub delegated_amount: PodU64,
    pub close_authority: Address,
}

const _: () = assert!(core::mem::size_of::<TokenRecord>() == 160);

#[program]
pub mod token_account {
    use super::*;

    /// Check the owner, then set `state` and `amount` (a zero-copy record
    /// has nothing to decode or encode).
    pub fn full(ctx: &mut Context<WriteOwned>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT.into();
        Ok(())
    }

    /// Check the owner; write nothing.
    pub fn read_owner(_ctx: &mut Context<ReadOwned>) -> Result<()> {
        Ok(())
    }

    /// Set `state` and `amount`, keeping every other field.
    pub fn update_amount(ctx: &mut Context<Write>) -> Result<()> {
        let record = &mut ctx.accounts.record;
        record.state = NEW_STATE;
        record.amount = NEW_AMOUNT.into();
        Ok(())
    }
}

#[derive(Accounts)]
pub struct WriteOwned {
    #[account(mut)]
    pub record: Account<TokenRecord>,
    #[account(address = record.owner)]
    pub owner: UncheckedAccount,
}

#[derive(Accounts)]
pub struct ReadOwned {
    pub record: Account<TokenRecord>,
    #[account(address = record.owner)]
    pub owner: UncheckedAccount,
}

#[derive(Accounts)]
pub struct Write {
    #[account(mut)]
    pub record: Account<TokenRecord>,
    pub owner: UncheckedAccount,
}

anchor_lang::pinocchio::nostd_panic_handler!();
