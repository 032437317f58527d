//! Raw pointer cast: the zero-cost baseline. All three operations reinterpret
//! the account bytes in place as `&Account` / `&mut Account`, with no crate.
#![no_std]

use common::{Account, AccountBytes, Address, Operations, ProgramResult};

struct Transmute;

impl Transmute {
    fn cast(data: &AccountBytes) -> &Account {
        // SAFETY: `data` is exactly `size_of::<Account>()` bytes, `Account` is
        // `repr(C)` with integer and byte-array fields only (every bit pattern
        // is valid), and the runtime places account data at 8-byte alignment.
        unsafe { &*data.as_ptr().cast::<Account>() }
    }

    fn cast_mut(data: &mut AccountBytes) -> &mut Account {
        // SAFETY: as in `cast`; the `&mut` borrow of `data` makes it unique.
        unsafe { &mut *data.as_mut_ptr().cast::<Account>() }
    }
}

impl Operations for Transmute {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let account = Self::cast_mut(data);
        account.check_owner(owner)?;
        account.update();
        Ok(())
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        Self::cast(data).check_owner(owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        Self::cast_mut(data).update();
        Ok(())
    }
}

common::program!(Transmute);
