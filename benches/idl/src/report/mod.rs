//! The report of one IDL's run, in `target/benches/idl/<program>/`:
//! `summary.md` (also printed: a line per account type, then a table per
//! account type) and `results.json` (the families' record schema with
//! `family: "idl"`), and with `PROFILE=1` which categories make each
//! move's difference ([`categories`]).

pub mod categories;
pub mod json;
pub mod moves;
mod names;
pub mod summary;

pub use json::json;
pub use summary::summary;
