//! spl-token 9.0.0 from crates.io, unchanged: its `entrypoint` (a
//! `#[no_mangle]` function of the dependency) is this library's, so the
//! program built here is the published one, linked by this project's
//! route (`make published`).

pub use spl_token;

// The SVM's memcpy/memmove/memset/memcmp (`sol_memcpy_` and friends above
// their threshold), as every program of this project links them.
use solana_compiler_builtins as _;
