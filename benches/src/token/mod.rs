//! The token family on the harness side: the record and its encodings,
//! the contract as an oracle (its report sections and chart are in
//! `report/`).

pub mod contract;
pub mod record;

pub use record::{ACCOUNT_LEN, Encoding, fixture, fixture_owner, raw_fixture};

/// The program every ratio is relative to (in the same shape).
pub const BASELINE: &str = "transmute";
