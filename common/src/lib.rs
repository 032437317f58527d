//! What every benchmark program shares, by family: each family's record,
//! operation codes and values, and its on-chain plumbing (entrypoint,
//! dispatch, checks). A program crate implements its family's traits with
//! its serializer and calls the family's `program!` macro; nothing else.
#![no_std]

#[cfg(any(
    feature = "message",
    feature = "metadata",
    feature = "stack",
    feature = "self-cpi"
))]
extern crate alloc;

pub mod idl;
#[cfg(feature = "message")]
pub mod message;
#[cfg(feature = "metadata")]
pub mod metadata;
#[cfg(feature = "solana-program")]
pub mod native;
#[cfg(feature = "stack")]
pub mod stack;
pub mod token;

pub use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};

// Re-exported for the `program!` macros, so program crates need no direct
// dependency.
#[doc(hidden)]
pub use pinocchio;
#[cfg(feature = "solana-program")]
#[doc(hidden)]
pub use solana_program;

// Links the SVM's memcpy/memset/memcmp/memmove (small copies inline, large
// ones through the `sol_mem*_` syscalls) and the integer builtins.
use solana_compiler_builtins as _;

/// The stored authority must be account [1]'s key, else
/// `IncorrectAuthority` (the message family's `full` and `push_key`, the
/// metadata family's `full` and `set_uri`).
#[inline(always)]
pub fn check_authority(stored: &[u8; 32], key: &Address) -> ProgramResult {
    if stored == key.as_array() {
        Ok(())
    } else {
        Err(ProgramError::IncorrectAuthority)
    }
}

/// bincode 2 as the bincode programs and the host codecs use it:
/// fixed-width integers, and a limit on what a decode may claim, so a
/// corrupt length prefix is an error rather than an allocation.
#[cfg(feature = "bincode")]
pub const BINCODE: bincode::config::Configuration<
    bincode::config::LittleEndian,
    bincode::config::Fixint,
    bincode::config::Limit<32768>,
> = bincode::config::standard()
    .with_fixed_int_encoding()
    .with_limit::<32768>();

/// wincode writing borsh's bytes (`u32` counts, `u8` tags), as Anchor 2's
/// `BorshAccount` reads its accounts (the metadata family, and `make idl`'s
/// wincode programs), with preallocation capped at 4 KiB
/// (wincode's default is 4 MiB): a corrupt count must be an error, not an
/// allocation the 32 KiB heap cannot hold.
#[cfg(feature = "wincode")]
pub const WINCODE_BORSH: wincode::config::Configuration<
    true,
    4096,
    wincode::len::FixIntLen<u32>,
    wincode::int_encoding::LittleEndian,
    wincode::int_encoding::FixInt,
    u8,
> = wincode::config::Configuration::default()
    .with_length_encoding::<wincode::len::FixIntLen<u32>>()
    .with_tag_encoding::<u8>()
    .with_preallocation_size_limit::<4096>();

/// Maps a serializer's decode or encode error to the contract's error.
#[inline(always)]
pub fn invalid_account_data<E>(_: E) -> ProgramError {
    ProgramError::InvalidAccountData
}

/// The entrypoint, allocator and panic handler every program declares,
/// routing each instruction to `$dispatch(accounts, instruction_data)`.
/// Each family's `program!` macro calls it with its own dispatch and the
/// heap frame its cases run with.
///
/// The allocator is pinocchio's bump allocator bounded by that frame, not
/// by the largest heap a transaction may request (256 KiB, which
/// `default_allocator!` uses): an allocation that does not fit the frame
/// is refused (the program aborts out of memory, or the crate returns an
/// error where it uses `try_reserve`) instead of being handed out past the
/// frame and faulting with an access violation when it is touched.
#[doc(hidden)]
#[macro_export]
macro_rules! __entrypoint {
    ($dispatch:expr, heap = $heap_frame:expr) => {
        // Two accounts at most are parsed; extra ones are ignored.
        $crate::pinocchio::program_entrypoint!(process_instruction, 2);
        $crate::pinocchio::nostd_panic_handler!();

        #[cfg(any(target_os = "solana", target_arch = "bpf"))]
        #[global_allocator]
        // SAFETY: the runtime maps a heap frame of `$heap_frame` bytes at
        // `HEAP_START_ADDRESS`, aligned to `usize` (the harness requests it
        // per family, `Family::heap_frame`), and nothing else writes there.
        static ALLOCATOR: $crate::pinocchio::entrypoint::BumpAllocator = unsafe {
            $crate::pinocchio::entrypoint::BumpAllocator::new_unchecked(
                $crate::pinocchio::entrypoint::HEAP_START_ADDRESS as usize,
                $heap_frame as usize,
            )
        };

        // Off-chain (clippy, host builds) `std`'s allocator serves.
        #[cfg(not(any(target_os = "solana", target_arch = "bpf")))]
        mod __host_allocator {
            extern crate std as __std;
        }

        fn process_instruction(
            _program_id: &$crate::Address,
            accounts: &mut [$crate::AccountView],
            instruction_data: &[u8],
        ) -> $crate::ProgramResult {
            $dispatch(accounts, instruction_data)
        }
    };
}
