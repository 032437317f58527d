//! How much the program tells the compiler about the account's length
//! before a crate decodes it: one cargo feature of `common` per shape, so
//! every program is built in each shape from the same source.
//!
//! The account's length is 160 (the raw layout) or, for a format with its
//! own encoding, that encoding's length: its maximum where it varies
//! (postcard's and bincode's varints), since an account is allocated once
//! and must hold any value it may be updated to. `LEN` below is that length.
//!
//! - `exact` (no feature): the dispatch checks `len == LEN`
//!   (`InvalidAccountData`) before the writable check and hands the crate a
//!   `[u8; LEN]`: every bounds check the crate makes folds away.
//! - `at_least`: the dispatch checks `len >= LEN` in the same place and hands
//!   the crate the whole data slice; the crate works on its first `LEN` bytes
//!   and the rest stays unchanged.
//! - `unchecked`: the dispatch checks no length; the crate gets the whole
//!   slice and its own API refuses short data. The length is found out only
//!   when the crate reads, so the order is: accounts, op, writable, length,
//!   owner.

use pinocchio::error::ProgramError;

use super::Account;

#[cfg(all(feature = "at_least", feature = "unchecked"))]
compile_error!("features `at_least` and `unchecked` are two shapes: build with one at most");

/// The account data as every operation of a format whose account is `LEN`
/// bytes sees it (`LEN` is 160 but for formats with their own encoding).
#[cfg(not(any(feature = "at_least", feature = "unchecked")))]
pub type Bytes<const LEN: usize> = [u8; LEN];
/// The account data as every operation sees it.
#[cfg(any(feature = "at_least", feature = "unchecked"))]
pub type Bytes<const LEN: usize> = [u8];

/// The account data of the formats whose encoding is the 160 raw bytes.
pub type AccountBytes = Bytes<{ Account::LEN }>;

/// Whether the dispatch's length check (where the shape has one) passes.
#[inline(always)]
pub(crate) const fn len_ok<const LEN: usize>(len: usize) -> bool {
    if cfg!(feature = "at_least") {
        len >= LEN
    } else if cfg!(feature = "unchecked") {
        true
    } else {
        len == LEN
    }
}

#[cfg(not(any(feature = "at_least", feature = "unchecked")))]
#[inline(always)]
pub(crate) fn bytes<const LEN: usize>(data: &[u8]) -> Result<&Bytes<LEN>, ProgramError> {
    data.try_into()
        .map_err(|_| ProgramError::InvalidAccountData)
}

#[cfg(not(any(feature = "at_least", feature = "unchecked")))]
#[inline(always)]
pub(crate) fn bytes_mut<const LEN: usize>(
    data: &mut [u8],
) -> Result<&mut Bytes<LEN>, ProgramError> {
    data.try_into()
        .map_err(|_| ProgramError::InvalidAccountData)
}

#[cfg(any(feature = "at_least", feature = "unchecked"))]
#[inline(always)]
pub(crate) fn bytes<const LEN: usize>(data: &[u8]) -> Result<&Bytes<LEN>, ProgramError> {
    Ok(data)
}

#[cfg(any(feature = "at_least", feature = "unchecked"))]
#[inline(always)]
pub(crate) fn bytes_mut<const LEN: usize>(
    data: &mut [u8],
) -> Result<&mut Bytes<LEN>, ProgramError> {
    Ok(data)
}
