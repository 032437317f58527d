//! bytemuck: `Account` derives `Pod`, so all three operations borrow the
//! account bytes in place (`common::InPlace`) with `from_bytes` /
//! `from_bytes_mut`, which check size and alignment and never copy.
#![no_std]

use common::{Account, AccountBytes, InPlace, ProgramError, View};

struct Bytemuck;

impl View for Bytemuck {
    fn view(data: &AccountBytes) -> Result<&Account, ProgramError> {
        Ok(bytemuck::from_bytes(data))
    }

    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError> {
        Ok(bytemuck::from_bytes_mut(data))
    }
}

common::program!(InPlace<Bytemuck>);
