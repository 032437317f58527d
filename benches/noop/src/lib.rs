//! The floor: the same entrypoint, dispatch and checks as every token
//! program, with operations that do nothing. Reports subtract its CUs to
//! show what each crate's operation costs on its own. Not a crate, so not
//! under programs/ and not held to the contract.
#![no_std]

use common::{
    Address, ProgramResult,
    token::{AccountBytes, Operations},
};

struct Noop;

impl Operations for Noop {
    fn full(_: &mut AccountBytes, _: &Address) -> ProgramResult {
        Ok(())
    }

    fn read_owner(_: &AccountBytes, _: &Address) -> ProgramResult {
        Ok(())
    }

    fn update_amount(_: &mut AccountBytes) -> ProgramResult {
        Ok(())
    }
}

common::token_program!(Noop);
