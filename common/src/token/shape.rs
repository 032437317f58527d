//! How much the program tells the compiler about the account's length
//! before a crate decodes it: one cargo feature of `common` per shape, so
//! every program is built in each shape from the same source.
//!
//! - `exact` (no feature): the dispatch checks `len == 160`
//!   (`InvalidAccountData`) before the writable check and hands the crate a
//!   `[u8; 160]`: every bounds check the crate makes folds away.
//! - `at_least`: the dispatch checks `len >= 160` in the same place and hands
//!   the crate the whole data slice; the crate works on its first 160 bytes
//!   and the rest stays unchanged.
//! - `unchecked`: the dispatch checks no length; the crate gets the whole
//!   slice and its own API refuses short data. The length is found out only
//!   when the crate reads, so the order is: accounts, op, writable, length,
//!   owner.

use pinocchio::error::ProgramError;

use super::Account;

#[cfg(all(feature = "at_least", feature = "unchecked"))]
compile_error!("features `at_least` and `unchecked` are two shapes: build with one at most");

/// The account data as every operation sees it.
#[cfg(not(any(feature = "at_least", feature = "unchecked")))]
pub type AccountBytes = [u8; Account::LEN];
/// The account data as every operation sees it.
#[cfg(any(feature = "at_least", feature = "unchecked"))]
pub type AccountBytes = [u8];

/// Whether the dispatch's length check (where the shape has one) passes.
#[inline(always)]
pub(crate) const fn len_ok(len: usize) -> bool {
    if cfg!(feature = "at_least") {
        len >= Account::LEN
    } else if cfg!(feature = "unchecked") {
        true
    } else {
        len == Account::LEN
    }
}

#[cfg(not(any(feature = "at_least", feature = "unchecked")))]
#[inline(always)]
pub(crate) fn bytes(data: &[u8]) -> Result<&AccountBytes, ProgramError> {
    data.try_into()
        .map_err(|_| ProgramError::InvalidAccountData)
}

#[cfg(not(any(feature = "at_least", feature = "unchecked")))]
#[inline(always)]
pub(crate) fn bytes_mut(data: &mut [u8]) -> Result<&mut AccountBytes, ProgramError> {
    data.try_into()
        .map_err(|_| ProgramError::InvalidAccountData)
}

#[cfg(any(feature = "at_least", feature = "unchecked"))]
#[inline(always)]
pub(crate) fn bytes(data: &[u8]) -> Result<&AccountBytes, ProgramError> {
    Ok(data)
}

#[cfg(any(feature = "at_least", feature = "unchecked"))]
#[inline(always)]
pub(crate) fn bytes_mut(data: &mut [u8]) -> Result<&mut AccountBytes, ProgramError> {
    Ok(data)
}
