//! Raw pointer cast: the zero-cost baseline, with no crate. All three
//! operations reinterpret the account bytes in place as `&Account` /
//! `&mut Account` (`InPlace`). A cast has no API that checks the length, so
//! it checks `len >= 160` itself (folded away in the `exact` shape, where
//! the length is known).
#![no_std]

use common::{
    ProgramError,
    token::{Account, AccountBytes, InPlace, View},
};

struct Transmute;

impl View for Transmute {
    type Ref<'a> = &'a Account;
    type Mut<'a> = &'a mut Account;

    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        if data.len() < Account::LEN {
            return Err(ProgramError::InvalidAccountData);
        }
        // SAFETY: `data` holds at least `size_of::<Account>()` bytes,
        // `Account` is `repr(C)` with integer and byte-array fields only
        // (every bit pattern is valid), and the runtime places account data
        // at 8-byte alignment.
        Ok(unsafe { &*data.as_ptr().cast::<Account>() })
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        if data.len() < Account::LEN {
            return Err(ProgramError::InvalidAccountData);
        }
        // SAFETY: as in `view`; the `&mut` borrow of `data` makes it unique.
        Ok(unsafe { &mut *data.as_mut_ptr().cast::<Account>() })
    }
}

common::token_program!(InPlace<Transmute>);
