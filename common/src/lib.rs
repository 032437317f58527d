//! What every benchmark program shares, by family: each family's record,
//! operation codes and values, and its on-chain plumbing (entrypoint,
//! dispatch, checks). A program crate implements its family's traits with
//! its serializer and calls the family's `program!` macro; nothing else.
#![no_std]

#[cfg(feature = "message")]
extern crate alloc;

#[cfg(feature = "message")]
pub mod message;
pub mod token;

pub use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};

// Re-exported for the `program!` macros, so program crates need no direct
// dependency.
#[doc(hidden)]
pub use pinocchio;

// Links the SVM's memcpy/memset/memcmp/memmove (small copies inline, large
// ones through the `sol_mem*_` syscalls) and the integer builtins.
use solana_compiler_builtins as _;

/// Maps a serializer's decode or encode error to the contract's error.
#[inline(always)]
pub fn invalid_account_data<E>(_: E) -> ProgramError {
    ProgramError::InvalidAccountData
}

/// The entrypoint, allocator and panic handler every program declares,
/// routing each instruction to `$dispatch(accounts, instruction_data)`.
/// Each family's `program!` macro calls it with its own dispatch.
#[doc(hidden)]
#[macro_export]
macro_rules! __entrypoint {
    ($dispatch:expr) => {
        // Two accounts at most are parsed; extra ones are ignored.
        $crate::pinocchio::program_entrypoint!(process_instruction, 2);
        $crate::pinocchio::default_allocator!();
        $crate::pinocchio::nostd_panic_handler!();

        fn process_instruction(
            _program_id: &$crate::Address,
            accounts: &mut [$crate::AccountView],
            instruction_data: &[u8],
        ) -> $crate::ProgramResult {
            $dispatch(accounts, instruction_data)
        }
    };
}
