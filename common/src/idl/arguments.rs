//! The contract of the instruction-argument programs `make idl` generates
//! (docs/idl.md, "Instructions"): one program per format holding every
//! instruction's decoder behind the framework's dispatch, so the dispatch a
//! row pays is the one a real program with all those handlers pays.

use pinocchio::{AccountView, ProgramResult, error::ProgramError};

/// Every instruction of one IDL in one format.
pub trait Arguments {
    /// The discriminator's length: 8 for Anchor, 1 for Shank.
    const DISCRIMINATOR_LEN: usize;
    /// Runs the instruction whose discriminator (little-endian, zero
    /// extended) is `discriminator`: decode and validate `args`, then store
    /// the chosen argument's bytes at the start of `out` (account [0]).
    fn run(discriminator: u64, args: &[u8], out: &mut [u8]) -> ProgramResult;
}

/// The contract, in order: no account -> `NotEnoughAccountKeys`; data
/// shorter than the discriminator -> `InvalidInstructionData`; account [0]
/// read-only -> `Immutable`; then the format (an unknown discriminator, or
/// arguments that are short or invalid -> `InvalidInstructionData`; account
/// [0] shorter than the stored argument -> `InvalidAccountData`). Bytes
/// after the arguments are accepted, as Anchor's decoders accept them.
/// Nothing is written on any error.
#[inline(always)]
pub fn dispatch<A: Arguments>(
    accounts: &mut [AccountView],
    instruction_data: &[u8],
) -> ProgramResult {
    let [account, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let (tag, args) = instruction_data
        .split_at_checked(A::DISCRIMINATOR_LEN)
        .ok_or(ProgramError::InvalidInstructionData)?;
    let mut wide = [0u8; 8];
    wide[..A::DISCRIMINATOR_LEN].copy_from_slice(tag);
    if !account.is_writable() {
        return Err(ProgramError::Immutable);
    }
    let mut out = account.try_borrow_mut()?;
    A::run(u64::from_le_bytes(wide), args, &mut out)
}

/// Writes `bytes` at the start of `out`: how a handler uses its decoded
/// argument, so the decode cannot be dropped and a decode that read the
/// wrong bytes shows in the account.
#[inline(always)]
pub fn store(out: &mut [u8], bytes: &[u8]) -> ProgramResult {
    out.get_mut(..bytes.len())
        .ok_or(ProgramError::InvalidAccountData)?
        .copy_from_slice(bytes);
    Ok(())
}

/// Maps a decoder's error to the contract's error.
#[inline(always)]
pub fn invalid_instruction_data<E>(_: E) -> ProgramError {
    ProgramError::InvalidInstructionData
}

/// Declares a generated argument program's entrypoint, allocator and panic
/// handler, and routes every instruction through [`dispatch`] to `$format`.
#[macro_export]
macro_rules! idl_arguments_program {
    ($format:ty) => {
        $crate::__entrypoint!(
            $crate::idl::arguments::dispatch::<$format>,
            heap = $crate::idl::HEAP_FRAME
        );
    };
}
