//! No code: the crate exists for its dependencies' features (its
//! `Cargo.toml` says why).
