//! bytemuck: `Account` derives `Pod`, so all three operations borrow the
//! account bytes in place with `from_bytes` / `from_bytes_mut`, which check
//! size and alignment and never copy.
#![no_std]

use common::{Account, AccountBytes, Address, Operations, ProgramResult};

struct Bytemuck;

impl Operations for Bytemuck {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let account: &mut Account = bytemuck::from_bytes_mut(data);
        account.check_owner(owner)?;
        account.update();
        Ok(())
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        bytemuck::from_bytes::<Account>(data).check_owner(owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        bytemuck::from_bytes_mut::<Account>(data).update();
        Ok(())
    }
}

common::program!(Bytemuck);
