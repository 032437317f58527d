//! Each account of a parsed IDL as one tree of types ([`Ty`]), every
//! defined type resolved in place; or, for an account that uses what the
//! benchmark cannot represent, the reason, naming the account, the type and
//! the field (the other accounts still run).
//!
//! [`types`] holds the nodes (a leaf every stage imports), [`resolve`] an
//! Anchor or Shank IDL's resolution and [`codama`] a Codama file's.

mod codama;
mod idents;
mod resolve;
pub mod types;

pub use resolve::resolve;
pub use types::*;
