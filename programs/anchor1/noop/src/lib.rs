//! Anchor 1.x's floor: the token family's three instructions, each taking
//! the same two accounts unchecked and doing nothing. What it costs is
//! Anchor's own: the entrypoint (solana-program's, every account
//! deserialized into an `AccountInfo`), the instruction's discriminator,
//! the accounts' `try_accounts`, the instruction-name log. Reports subtract
//! it to show what each account type adds. Not held to the contract.

use anchor_lang::prelude::*;
// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;

// The harness loads it at Program::id_for("anchor1/noop").
declare_id!("3WCstRYi3aYeSFWz9yZtXJnigG5W3xRJz2zuS9FkDZMD");

#[program]
pub mod noop {
    use super::*;

    pub fn full(_ctx: Context<Unchecked>) -> Result<()> {
        Ok(())
    }

    pub fn read_owner(_ctx: Context<Unchecked>) -> Result<()> {
        Ok(())
    }

    pub fn update_amount(_ctx: Context<Unchecked>) -> Result<()> {
        Ok(())
    }
}

#[derive(Accounts)]
pub struct Unchecked<'info> {
    /// CHECK: the floor reads nothing.
    pub record: UncheckedAccount<'info>,
    /// CHECK: the floor reads nothing.
    pub owner: UncheckedAccount<'info>,
}
