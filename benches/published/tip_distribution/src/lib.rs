//! jito-tip-distribution 0.1.6 from crates.io, unchanged: an Anchor 0.31
//! program whose `entrypoint` (a `#[no_mangle]` function Anchor's
//! `#[program]` expands to in the dependency) is this library's, so the
//! program built here is the published one, linked by this project's
//! route (`make published`).

pub use jito_tip_distribution;

// The SVM's memcpy/memmove/memset/memcmp (`sol_memcpy_` and friends above
// their threshold), as every program of this project links them.
use solana_compiler_builtins as _;
