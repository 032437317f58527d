//! A team's program, for the example of docs/profile.md's "In your CI":
//! a counter in one account (8 bytes, little-endian, owned by the
//! program). Instruction `0` adds one; `1` and a little-endian u64 add
//! that many. No dependencies: the loader's input is read as the runtime
//! lays it out (its serialization for the aligned loaders).
#![cfg_attr(target_arch = "bpf", no_std)]

use core::slice;

/// The runtime's codes for `ProgramError`'s builtin errors.
pub const INVALID_ARGUMENT: u64 = 2 << 32;
pub const INVALID_INSTRUCTION_DATA: u64 = 3 << 32;
pub const INVALID_ACCOUNT_DATA: u64 = 4 << 32;
pub const NOT_ENOUGH_ACCOUNT_KEYS: u64 = 11 << 32;

/// The bytes the runtime leaves after an account's data for it to grow.
const MAX_PERMITTED_DATA_INCREASE: usize = 10 * 1024;
/// An account's first byte when it is not a duplicate of an earlier one.
const NOT_DUPLICATE: u8 = u8::MAX;

/// The first account, as the instruction gave it.
pub struct Counter<'a> {
    pub writable: bool,
    pub owner: &'a [u8; 32],
    pub data: &'a mut [u8],
}

/// What the loader passed: the first account, the instruction's data and
/// the program's id.
pub struct Input<'a> {
    pub counter: Option<Counter<'a>>,
    pub data: &'a [u8],
    pub program_id: &'a [u8; 32],
}

/// Reads the loader's input: a u64 count of accounts; each account a
/// duplicate marker (then 7 bytes of padding), or the marker, signer,
/// writable and executable flags, 4 bytes, its key, owner, lamports, data
/// length, data, the room to grow, padding to 8 and its rent epoch; then
/// the instruction's data length, data, and the program id.
///
/// # Safety
/// `input` is the pointer the runtime passes the entrypoint.
pub unsafe fn read<'a>(input: *mut u8) -> Input<'a> {
    // SAFETY: every offset below is within the layout the runtime wrote;
    // u64s are read unaligned, the bytes borrowed for the call.
    unsafe {
        let count = (input as *const u64).read_unaligned();
        let mut at = 8usize;
        let mut counter = None;
        for index in 0..count {
            if *input.add(at) != NOT_DUPLICATE {
                at += 8;
                continue;
            }
            let writable = *input.add(at + 2) != 0;
            let owner = &*(input.add(at + 40) as *const [u8; 32]);
            let len = (input.add(at + 80) as *const u64).read_unaligned() as usize;
            let data = slice::from_raw_parts_mut(input.add(at + 88), len);
            if index == 0 {
                counter = Some(Counter {
                    writable,
                    owner,
                    data,
                });
            }
            at = (at + 88 + len + MAX_PERMITTED_DATA_INCREASE).next_multiple_of(8) + 8;
        }
        let len = (input.add(at) as *const u64).read_unaligned() as usize;
        let data = slice::from_raw_parts(input.add(at + 8), len);
        let program_id = &*(input.add(at + 8 + len) as *const [u8; 32]);
        Input {
            counter,
            data,
            program_id,
        }
    }
}

/// The instruction: the counter checked, the amount decoded, the sum
/// written back.
pub fn process(input: Input) -> Result<(), u64> {
    let counter = input.counter.ok_or(NOT_ENOUGH_ACCOUNT_KEYS)?;
    if !counter.writable || counter.owner != input.program_id || counter.data.len() != 8 {
        return Err(INVALID_ACCOUNT_DATA);
    }
    let by = match input.data {
        [0] => 1,
        [1, amount @ ..] => {
            u64::from_le_bytes(amount.try_into().map_err(|_| INVALID_INSTRUCTION_DATA)?)
        }
        _ => return Err(INVALID_INSTRUCTION_DATA),
    };
    let count = u64::from_le_bytes(counter.data[..8].try_into().expect("8 bytes"));
    let count = count.checked_add(by).ok_or(INVALID_ARGUMENT)?;
    counter.data.copy_from_slice(&count.to_le_bytes());
    Ok(())
}

/// # Safety
/// Called by the runtime with its input.
#[cfg(target_arch = "bpf")]
#[unsafe(no_mangle)]
pub unsafe extern "C" fn entrypoint(input: *mut u8) -> u64 {
    // SAFETY: the runtime's input, as `read` requires.
    match process(unsafe { read(input) }) {
        Ok(()) => 0,
        Err(code) => code,
    }
}

#[cfg(target_arch = "bpf")]
unsafe extern "C" {
    /// The runtime's `abort` syscall: the call fails.
    fn abort() -> !;
}

#[cfg(target_arch = "bpf")]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: a syscall with no arguments.
    unsafe { abort() }
}
