//! Hopper's floor: the token family's three instructions, each taking the
//! same two accounts unchecked and doing nothing. What it costs is
//! Hopper's own: its entrypoint, the one-byte dispatch, the accounts.
//! Reports subtract it to show what the account type adds. Not held to
//! the contract.
#![no_std]

use hopper::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

#[cfg(target_os = "solana")]
mod sbf {
    hopper::no_allocator!();
    hopper::nostd_panic_handler!();
}

// The harness loads it at Program::id_for("hopper/noop").
hopper::declare_id!("3MncidGBmPj5i9rCH4rGxkPZdEPiMghNfKaP7utqVVH2");

#[derive(Accounts)]
pub struct Unchecked<'info> {
    pub record: UncheckedAccount<'info>,
    pub owner: UncheckedAccount<'info>,
}

#[program]
mod noop_program {
    use super::*;

    #[instruction(0)]
    pub fn full(_ctx: Ctx<Unchecked>) -> ProgramResult {
        Ok(())
    }

    #[instruction(1)]
    pub fn read_owner(_ctx: Ctx<Unchecked>) -> ProgramResult {
        Ok(())
    }

    #[instruction(2)]
    pub fn update_amount(_ctx: Ctx<Unchecked>) -> ProgramResult {
        Ok(())
    }
}
