//! zerocopy: `Account` derives `FromBytes`, `IntoBytes`, `KnownLayout` and
//! `Immutable`, so all three operations borrow the account bytes in place
//! (`common::InPlace`) with `ref_from_bytes` / `mut_from_bytes`, which check
//! size and alignment and return an error instead of panicking.
#![no_std]

use common::{Account, AccountBytes, InPlace, ProgramError, View, invalid_account_data};
use zerocopy::FromBytes;

struct Zerocopy;

impl View for Zerocopy {
    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        Account::ref_from_bytes(data).map_err(invalid_account_data)
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        Account::mut_from_bytes(data).map_err(invalid_account_data)
    }
}

common::program!(InPlace<Zerocopy>);
