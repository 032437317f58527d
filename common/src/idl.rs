//! The contract of the programs `make idl` generates from a user's IDL
//! (docs/idl.md): one program per account type and format, each a
//! [`Format`] behind this dispatch, so a generated program holds only what
//! is specific to its account and crate.

use pinocchio::{AccountView, ProgramResult, error::ProgramError};

pub mod arguments;
pub mod events;

/// The three operations on one account type: `data` is the account's data
/// after its discriminator (which the dispatch has checked).
pub trait Format {
    /// The account type's index in the IDL: the instruction's second byte.
    const TYPE: u8;
    /// The bytes the account starts with (empty where the IDL has none).
    const DISCRIMINATOR: &'static [u8];
    /// The `read` field's width in the instruction data.
    const READ_LEN: usize;
    /// The `update` field's width; `None` where the record has no integer.
    const UPDATE_LEN: Option<usize>;
    /// Decode and validate the whole record, add one to the `update` field,
    /// write the record back.
    fn full(data: &mut [u8]) -> ProgramResult;
    /// Succeed if the `read` field's bytes are `value`.
    fn read(data: &[u8], value: &[u8]) -> ProgramResult;
    /// Set the `update` field to `value`.
    fn update(data: &mut [u8], value: &[u8]) -> ProgramResult;
}

/// The contract, in the families' order: fewer than 2 accounts ->
/// `NotEnoughAccountKeys`; no or unknown op, another account type's
/// index, or a value of the wrong width -> `InvalidInstructionData`;
/// account [0] read-only for a write -> `Immutable`; data shorter than the
/// discriminator or another discriminator -> `InvalidAccountData`; then the
/// format (an invalid record -> `InvalidAccountData`, a `read` that does
/// not match -> `InvalidArgument`). Nothing is written on any error.
#[inline(always)]
pub fn dispatch<F: Format>(accounts: &mut [AccountView], instruction_data: &[u8]) -> ProgramResult {
    let [account, _, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let [op, ty, value @ ..] = instruction_data else {
        return Err(ProgramError::InvalidInstructionData);
    };
    let width = match op {
        0 => 0,
        1 => F::READ_LEN,
        2 => F::UPDATE_LEN.ok_or(ProgramError::InvalidInstructionData)?,
        _ => return Err(ProgramError::InvalidInstructionData),
    };
    if *ty != F::TYPE || value.len() != width {
        return Err(ProgramError::InvalidInstructionData);
    }
    if *op != 1 && !account.is_writable() {
        return Err(ProgramError::Immutable);
    }
    let at = F::DISCRIMINATOR.len();
    if *op == 1 {
        let data = account.try_borrow()?;
        return F::read(record(&data, at, F::DISCRIMINATOR)?, value);
    }
    let mut data = account.try_borrow_mut()?;
    record(&data, at, F::DISCRIMINATOR)?;
    match op {
        0 => F::full(&mut data[at..]),
        _ => F::update(&mut data[at..], value),
    }
}

/// The data after the discriminator, or `InvalidAccountData` where it is
/// not there.
#[inline(always)]
fn record<'a>(data: &'a [u8], at: usize, discriminator: &[u8]) -> Result<&'a [u8], ProgramError> {
    match data.split_at_checked(at) {
        Some((found, rest)) if found == discriminator => Ok(rest),
        _ => Err(ProgramError::InvalidAccountData),
    }
}

/// The heap frame the generated programs' cases run with: the runtime's
/// default, 32 KiB.
pub const HEAP_FRAME: u32 = 32 * 1024;

/// Declares a generated program's entrypoint, allocator and panic handler,
/// and routes every instruction through [`dispatch`] to `$format`.
#[macro_export]
macro_rules! idl_program {
    ($format:ty) => {
        $crate::__entrypoint!(
            $crate::idl::dispatch::<$format>,
            heap = $crate::idl::HEAP_FRAME
        );
    };
}
