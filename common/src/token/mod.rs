//! The `token` family: a fixed 160-byte, token-account-like [`Account`] and
//! three operations on it, built in three length shapes (see [`shape`]).

mod access;
mod account;
mod operation;
mod program;
pub mod shape;

pub use access::{Codec, InPlace, RoundTrip, View};
pub use account::{Account, NEW_AMOUNT, NEW_STATE};
pub use operation::Operation;
pub use program::{Operations, dispatch};
pub use shape::AccountBytes;
