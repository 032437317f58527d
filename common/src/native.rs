//! solana-program's entrypoint, as native programs (SPL's among them) are
//! written: `entrypoint!` deserializes every account into an
//! `AccountInfo` (its data and lamports behind `RefCell`s, in a `Vec`) and
//! installs solana-program's allocator and panic hook. Built with the
//! `solana-program` feature, for the std target (benches/std/): a family's
//! `program!` macro then routes through this entrypoint to the family's
//! dispatch over `&[AccountInfo]`, so each crate's code is the same as on
//! pinocchio's entrypoint.
//!
//! The heap: solana-program's `BumpAllocator` over `HEAP_LENGTH` (32 KiB),
//! the token family's frame ([`crate::token::HEAP_FRAME`]).

pub use solana_program::{account_info::AccountInfo, pubkey::Pubkey};

/// solana-program's `entrypoint!`, routing each instruction to
/// `$dispatch(accounts, instruction_data)`.
#[doc(hidden)]
#[macro_export]
macro_rules! __native_entrypoint {
    ($dispatch:expr) => {
        $crate::solana_program::entrypoint!(process_instruction);

        fn process_instruction(
            _program_id: &$crate::native::Pubkey,
            accounts: &[$crate::native::AccountInfo],
            instruction_data: &[u8],
        ) -> $crate::ProgramResult {
            $dispatch(accounts, instruction_data)
        }
    };
}
