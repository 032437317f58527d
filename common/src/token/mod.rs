//! The `token` family: a fixed 160-byte, token-account-like [`Account`] and
//! three operations on it, built in three length shapes (see [`shape`]).

mod access;
mod account;
#[cfg(feature = "solana-program")]
pub mod native;
mod operation;
mod program;
pub mod shape;
mod views;

pub use access::{Codec, Fields, FieldsMut, InPlace, RoundTrip, View};
#[cfg(feature = "rkyv")]
pub use account::ArchivedAccount;
pub use account::{Account, NEW_AMOUNT, NEW_STATE};
#[cfg(feature = "light-zero-copy")]
pub use account::{ZAccount, ZAccountMut};
pub use operation::Operation;
pub use program::{HEAP_FRAME, Operations, dispatch};
pub use shape::{AccountBytes, Bytes};
