//! Anchor 2's floor: the token family's three instructions, each taking
//! the same two accounts unchecked and doing nothing. What it costs is
//! Anchor's own: the entrypoint, the instruction's discriminator, the
//! accounts cursor, the instruction-name log. Reports subtract it to show
//! what each account type adds. Not held to the contract.
#![no_std]

use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor2/noop").
declare_id!("HQA3Y2V5hEffJg4B4ksgjrp7WRcmoo4tUvZBPNfkQDJQ");

#[program]
pub mod noop {
    use super::*;

    pub fn full(_ctx: &mut Context<Unchecked>) -> Result<()> {
        Ok(())
    }

    pub fn read_owner(_ctx: &mut Context<Unchecked>) -> Result<()> {
        Ok(())
    }

    pub fn update_amount(_ctx: &mut Context<Unchecked>) -> Result<()> {
        Ok(())
    }
}

#[derive(Accounts)]
pub struct Unchecked {
    pub record: UncheckedAccount,
    pub owner: UncheckedAccount,
}

anchor_lang::pinocchio::nostd_panic_handler!();
