//! The contract of the event programs `make idl` generates (docs/idl.md,
//! "Events"): one program per format holding every event behind one
//! dispatch; each handler builds its event from the instruction data, then
//! logs its discriminator and encoding as `emit!` does.

use pinocchio::{AccountView, ProgramResult, error::ProgramError};

/// Every event of one IDL in one format.
pub trait Events {
    /// Builds and emits the event whose discriminator (little-endian, zero
    /// extended) is `discriminator`: `data` is the whole instruction data
    /// (the discriminator, then the event's fields in borsh's encoding),
    /// `fields` what follows the discriminator.
    fn emit(discriminator: u64, data: &[u8], fields: &[u8]) -> ProgramResult;
}

/// The event's discriminator is the instruction's: data shorter than 8
/// bytes, an unknown discriminator or fields that are not a valid event
/// -> `InvalidInstructionData`. Accounts are not read.
#[inline(always)]
pub fn dispatch<E: Events>(
    _accounts: &mut [AccountView],
    instruction_data: &[u8],
) -> ProgramResult {
    let (tag, fields) = instruction_data
        .split_first_chunk::<8>()
        .ok_or(ProgramError::InvalidInstructionData)?;
    E::emit(u64::from_le_bytes(*tag), instruction_data, fields)
}

/// Logs `data` with the `sol_log_data` syscall (`Program data: <base64>`),
/// as Anchor's `emit!` does.
#[inline(always)]
pub fn log(data: &[u8]) {
    let parts: [&[u8]; 1] = [data];
    #[cfg(any(target_os = "solana", target_arch = "bpf"))]
    // SAFETY: `parts` is a valid slice of slices for the call's duration;
    // the syscall only reads it.
    unsafe {
        pinocchio::syscalls::sol_log_data(parts.as_ptr() as *const u8, parts.len() as u64)
    };
    #[cfg(not(any(target_os = "solana", target_arch = "bpf")))]
    core::hint::black_box(parts);
}

/// Declares a generated event program's entrypoint, allocator and panic
/// handler, and routes every instruction through [`dispatch`] to `$format`.
#[macro_export]
macro_rules! idl_events_program {
    ($format:ty) => {
        $crate::__entrypoint!(
            $crate::idl::events::dispatch::<$format>,
            heap = $crate::idl::HEAP_FRAME
        );
    };
}
