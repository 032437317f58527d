//! The metadata family on the harness side. So far its instances; the
//! contract, cases, report section and chart join as the programs do.

pub mod instances;

pub use instances::{INSTANCES, instance};
