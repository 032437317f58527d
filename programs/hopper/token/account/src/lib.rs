//! The token record as a Hopper account: a headered `#[account]` (the
//! 16-byte header of discriminator, version, flags, layout fingerprint and
//! schema epoch, then the record, its integers Hopper's one-aligned
//! `WireU64`), held by `Account<'info, T>` in `#[derive(Accounts)]`
//! contexts, which check the owner program, the length and the header,
//! and the owner with `has_one`; written through `get_mut()`. Handlers are
//! `#[program]` instructions on one-byte discriminators, the family's op
//! bytes. The contract is the token family's as Hopper states it:
//! benches/src/frameworks/hopper.rs, docs/frameworks.md.
#![no_std]

use hopper::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// No heap (nothing here allocates), and a panic aborts: Hopper's own
// no_std setup.
#[cfg(target_os = "solana")]
mod sbf {
    hopper::no_allocator!();
    hopper::nostd_panic_handler!();
}

// The harness loads it at Program::id_for("hopper/token/account").
hopper::declare_id!("8A4CNYSZ1vgKAcPV3hYFLGXpg1XPKAv2eax6JbKmMMnN");

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

/// The family's 160-byte record, behind Hopper's 16-byte header.
#[derive(Clone, Copy)]
#[repr(C)]
#[account(discriminator = 1, version = 1)]
pub struct TokenRecord {
    pub mint: Address,
    pub owner: Address,
    pub amount: WireU64,
    pub delegate: Address,
    pub state: u8,
    pub padding: [u8; 7],
    pub native_amount: WireU64,
    pub delegated_amount: WireU64,
    pub close_authority: Address,
}

#[derive(Accounts)]
pub struct WriteOwned<'info> {
    #[account(mut, has_one = owner)]
    pub record: Account<'info, TokenRecord>,
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct ReadOwned<'info> {
    #[account(has_one = owner)]
    pub record: Account<'info, TokenRecord>,
    pub owner: UncheckedAccount<'info>,
}

#[derive(Accounts)]
pub struct Write<'info> {
    #[account(mut)]
    pub record: Account<'info, TokenRecord>,
    pub owner: UncheckedAccount<'info>,
}

#[program]
mod token_program {
    use super::*;

    /// Check the owner, then set `state` and `amount` in place.
    #[instruction(0)]
    pub fn full(ctx: Ctx<WriteOwned>) -> ProgramResult {
        let mut record = ctx.accounts.record.get_mut()?;
        record.state = NEW_STATE;
        record.amount = WireU64::new(NEW_AMOUNT);
        Ok(())
    }

    /// Check the owner; write nothing.
    #[instruction(1)]
    pub fn read_owner(_ctx: Ctx<ReadOwned>) -> ProgramResult {
        Ok(())
    }

    /// Set `state` and `amount`, keeping every other field.
    #[instruction(2)]
    pub fn update_amount(ctx: Ctx<Write>) -> ProgramResult {
        let mut record = ctx.accounts.record.get_mut()?;
        record.state = NEW_STATE;
        record.amount = WireU64::new(NEW_AMOUNT);
        Ok(())
    }
}
