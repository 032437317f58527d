//! spl-token-2022 7.0.0 from crates.io, unchanged: its `entrypoint` (a
//! `#[no_mangle]` function of the dependency) is this library's, so the
//! program built here is the published one, linked by this project's
//! route (`make published`), the source mainnet's Token-2022 was built
//! from (its security.txt: `source_release: token-2022-v7.0.0`).

pub use spl_token_2022;

// The SVM's memcpy/memmove/memset/memcmp (`sol_memcpy_` and friends above
// their threshold), as every program of this project links them.
use solana_compiler_builtins as _;

// Token-2022's interest-bearing and scaled-UI-amount extensions compute in
// f64 (`exp`, `powi`, `round`) and i128. LLVM emits those operations as
// calls to compiler-builtins' functions while generating code, after fat
// LTO has dropped every function nothing referenced yet; so they are
// referenced here, and exported by the linker (.cargo/config.toml), as
// platform-tools' lld resolves the same calls against compiler-builtins.
unsafe extern "C" {
    fn __divti3(a: i128, b: i128) -> i128;
    fn __floattidf(i: i128) -> f64;
    fn __powidf2(a: f64, b: i32) -> f64;
    fn exp(x: f64) -> f64;
    fn round(x: f64) -> f64;
    fn __unorddf2(a: f64, b: f64) -> i32;
    fn __ltdf2(a: f64, b: f64) -> i32;
    fn __truncdfsf2(a: f64) -> f32;
    fn __fixdfdi(a: f64) -> i64;
    fn __floatsidf(i: i32) -> f64;
}

/// The functions above, referenced so that they survive LTO.
#[allow(dead_code, reason = "kept, never read")]
struct Libcalls([*const (); 10]);
// SAFETY: the pointers are never dereferenced or called through here; the
// array only exists to be kept.
unsafe impl Sync for Libcalls {}
#[used]
static LIBCALLS: Libcalls = Libcalls([
    __divti3 as *const (),
    __floattidf as *const (),
    __powidf2 as *const (),
    exp as *const (),
    round as *const (),
    __unorddf2 as *const (),
    __ltdf2 as *const (),
    __truncdfsf2 as *const (),
    __fixdfdi as *const (),
    __floatsidf as *const (),
]);
