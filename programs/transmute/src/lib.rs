//! Raw pointer cast: the zero-cost baseline, with no crate. All three
//! operations reinterpret the account bytes in place as `&Account` /
//! `&mut Account` (`common::InPlace`).
#![no_std]

use common::{Account, AccountBytes, InPlace, ProgramError, View};

struct Transmute;

impl View for Transmute {
    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        // SAFETY: `data` is exactly `size_of::<Account>()` bytes, `Account` is
        // `repr(C)` with integer and byte-array fields only (every bit pattern
        // is valid), and the runtime places account data at 8-byte alignment.
        Ok(unsafe { &*data.as_ptr().cast::<Account>() })
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        // SAFETY: as in `view`; the `&mut` borrow of `data` makes it unique.
        Ok(unsafe { &mut *data.as_mut_ptr().cast::<Account>() })
    }
}

common::program!(InPlace<Transmute>);
