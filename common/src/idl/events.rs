//! The contract of the event programs `make idl` generates (docs/idl.md,
//! "Events"): one program per format holding every event behind one
//! dispatch; each handler builds its event from the instruction data, then
//! logs its discriminator and encoding as `emit!` does, or (`emit_cpi`)
//! passes them to the program itself in a CPI, as `emit_cpi!` does.

use pinocchio::{AccountView, ProgramResult, error::ProgramError};
#[cfg(feature = "self-cpi")]
use pinocchio::{
    Address,
    cpi::{Seed, Signer, invoke_signed},
    instruction::{InstructionAccount, InstructionView},
};

/// Every event of one IDL in one format.
pub trait Events {
    /// Builds and emits the event whose discriminator (little-endian) is
    /// `discriminator`: `data` is the whole instruction data (the
    /// discriminator, then the event's fields in borsh's encoding),
    /// `fields` what follows the discriminator. Only `emit_cpi` reads
    /// `accounts` (the event authority, then the program itself).
    fn emit(
        accounts: &[AccountView],
        discriminator: u64,
        data: &[u8],
        fields: &[u8],
    ) -> ProgramResult;
}

/// The event's discriminator is the instruction's: data shorter than 8
/// bytes, an unknown discriminator or fields that are not a valid event
/// -> `InvalidInstructionData`.
#[inline(always)]
pub fn dispatch<E: Events>(accounts: &mut [AccountView], instruction_data: &[u8]) -> ProgramResult {
    let (tag, fields) = instruction_data
        .split_first_chunk::<8>()
        .ok_or(ProgramError::InvalidInstructionData)?;
    E::emit(accounts, u64::from_le_bytes(*tag), instruction_data, fields)
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

/// Anchor's self-CPI event instruction tag, `sha256("anchor:event")[..8]`
/// as a little-endian `u64` (anchor-lang's `EVENT_IX_TAG`).
pub const EVENT_IX_TAG: u64 = 0x1d9acb512ea545e4;

/// What `emit_cpi` needs of the program, fixed when it is generated: its
/// address and its event authority, the PDA of `__event_authority`, with
/// its bump (Anchor 2 precomputes the authority in the same way where the
/// program's id is known when it is built).
#[cfg(feature = "self-cpi")]
pub trait SelfCpi {
    const PROGRAM_ID: Address;
    const EVENT_AUTHORITY: Address;
    const BUMP: u8;
}

/// [`dispatch`], after the self-CPI that `emit_cpi` makes, taken as
/// Anchor's entrypoint takes it: data starting with [`EVENT_IX_TAG`]
/// succeeds if account [0] is the event authority and signed (no account
/// `NotEnoughAccountKeys`, unsigned `MissingRequiredSignature`, another
/// address `InvalidSeeds`).
#[cfg(feature = "self-cpi")]
#[inline(always)]
pub fn dispatch_cpi<E: Events + SelfCpi>(
    accounts: &mut [AccountView],
    instruction_data: &[u8],
) -> ProgramResult {
    if instruction_data.get(..8) == Some(&EVENT_IX_TAG.to_le_bytes()[..]) {
        let [authority, ..] = &*accounts else {
            return Err(ProgramError::NotEnoughAccountKeys);
        };
        if !authority.is_signer() {
            return Err(ProgramError::MissingRequiredSignature);
        }
        if authority.address() != &E::EVENT_AUTHORITY {
            return Err(ProgramError::InvalidSeeds);
        }
        return Ok(());
    }
    dispatch::<E>(accounts, instruction_data)
}

/// `emit_cpi!`: the event's data (its discriminator and encoding) after
/// [`EVENT_IX_TAG`], as an instruction to the program itself signed by its
/// event authority (accounts [0]; the program is [1]).
#[cfg(feature = "self-cpi")]
#[inline(always)]
pub fn emit_cpi<E: SelfCpi>(accounts: &[AccountView], event: &[u8]) -> ProgramResult {
    let [authority, _program, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let mut data = alloc::vec::Vec::with_capacity(8 + event.len());
    data.extend_from_slice(&EVENT_IX_TAG.to_le_bytes());
    data.extend_from_slice(event);
    let metas = [InstructionAccount::readonly_signer(authority.address())];
    let instruction = InstructionView {
        program_id: &E::PROGRAM_ID,
        data: &data,
        accounts: &metas,
    };
    let bump = [E::BUMP];
    let seeds = [Seed::from(b"__event_authority"), Seed::from(&bump)];
    invoke_signed(&instruction, &[authority], &[Signer::from(&seeds)])
}

/// Declares a generated event program's entrypoint, allocator and panic
/// handler, and routes every instruction through [`dispatch`] (with
/// `self_cpi`, [`dispatch_cpi`]) to `$format`.
#[macro_export]
macro_rules! idl_events_program {
    ($format:ty) => {
        $crate::__entrypoint!(
            $crate::idl::events::dispatch::<$format>,
            heap = $crate::idl::HEAP_FRAME
        );
    };
    ($format:ty, self_cpi) => {
        $crate::__entrypoint!(
            $crate::idl::events::dispatch_cpi::<$format>,
            heap = $crate::idl::HEAP_FRAME
        );
    };
}
