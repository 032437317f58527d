//! The stack sweep (`make sweep`): `N` token `Account`s (160 bytes each) in one
//! account, and one operation, `full`: decode them all, add 1 to the last
//! one's `amount`, encode them back. `N` and the variant are chosen when
//! the program is built (`--features common/n8`, ..., `common/off_stack`):
//! a function whose frame passes 4,096 bytes fails the whole program's
//! link, so each `N` is a build of its own, and a refused build is a result.

use pinocchio::{AccountView, ProgramResult, error::ProgramError};

pub use crate::token::Account;

/// How many accounts the record holds, from the build's feature.
pub const N: usize = if cfg!(feature = "n32") {
    32
} else if cfg!(feature = "n24") {
    24
} else if cfg!(feature = "n16") {
    16
} else if cfg!(feature = "n8") {
    8
} else {
    1
};

/// A crate's `full` over the record, both ways.
pub trait Sweep {
    /// Decodes the record into a value on the stack (`[Account; N]`).
    fn by_value(data: &mut [u8]) -> ProgramResult;
    /// The way the crate's documentation offers to keep it off the stack.
    fn off_stack(data: &mut [u8]) -> ProgramResult;
}

/// The operation's change: the last account's amount, plus one.
#[inline(always)]
pub fn bump_last(accounts: &mut [Account]) -> ProgramResult {
    let last = accounts
        .last_mut()
        .ok_or(ProgramError::InvalidAccountData)?;
    last.amount = last.amount.wrapping_add(1);
    Ok(())
}

/// Account [0] holds the record; the instruction data is not read.
#[inline(always)]
pub fn dispatch<S: Sweep>(accounts: &mut [AccountView], _: &[u8]) -> ProgramResult {
    let [account, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let mut data = account.try_borrow_mut()?;
    if cfg!(feature = "off_stack") {
        S::off_stack(&mut data)
    } else {
        S::by_value(&mut data)
    }
}

/// Declares a sweep program: the entrypoint, allocator and panic handler,
/// routing every instruction to `$sweep`.
#[macro_export]
macro_rules! stack_program {
    ($sweep:ty) => {
        $crate::__entrypoint!($crate::stack::dispatch::<$sweep>, heap = 32 * 1024);
    };
}
