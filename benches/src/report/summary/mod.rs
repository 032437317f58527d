//! `summary.md`'s sections, each a family's or a view's: the tables a
//! reader scrolls, rendered from the run's measurements.

mod footprint;
pub mod frameworks;
mod message;
mod metadata;
mod token;
