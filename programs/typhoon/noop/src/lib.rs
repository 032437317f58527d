//! typhoon's floor: the token family's three instructions, each taking the
//! same two accounts unchecked and doing nothing. What it costs is
//! typhoon's own: the entrypoint, the router, the accounts. Reports
//! subtract it to show what the account type adds. Not held to the
//! contract.
#![no_std]

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use typhoon::prelude::*;

// The harness loads it at Program::id_for("typhoon/noop").
program_id!("GEmj3yTG33SQ3RJnQkCdRhWHGWYu29U4SZRDcybgNHqP");

#[context]
pub struct Unchecked {
    pub record: UncheckedAccount,
    pub owner: UncheckedAccount,
}

pub fn full(_ctx: Unchecked) -> ProgramResult {
    Ok(())
}

pub fn read_owner(_ctx: Unchecked) -> ProgramResult {
    Ok(())
}

pub fn update_amount(_ctx: Unchecked) -> ProgramResult {
    Ok(())
}

/// The family's op bytes: typhoon's router takes a one-byte discriminator.
pub const ROUTER: EntryFn = basic_router! {
    0 => full,
    1 => read_owner,
    2 => update_amount,
};

entrypoint!();
nostd_panic_handler!();
no_allocator!();
