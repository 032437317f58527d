//! What every benchmark program shares: the `Account` layout, the operation
//! codes and the values they write, and the on-chain plumbing (entrypoint,
//! dispatch, checks). A program crate implements [`View`] (zero-copy crates)
//! or [`Codec`] (owned round trip) with its serializer, or [`Operations`]
//! directly to mix the two, and calls [`program!`]; nothing else.
#![no_std]

mod account;
mod operation;
mod program;
mod shapes;

pub use account::{Account, NEW_AMOUNT, NEW_STATE, invalid_account_data};
pub use operation::Operation;
pub use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};
pub use program::{AccountBytes, Operations, dispatch};
pub use shapes::{Codec, InPlace, RoundTrip, View};

// Re-exported for `program!`, so program crates need no direct dependency.
#[doc(hidden)]
pub use pinocchio;

// Links the SVM's memcpy/memset/memcmp/memmove (small copies inline, large
// ones through the `sol_mem*_` syscalls) and the integer builtins.
use solana_compiler_builtins as _;
