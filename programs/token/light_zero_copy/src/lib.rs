//! light-zero-copy: its derive reads borsh's layout in place, and
//! `Account`'s borsh encoding is the 160 raw bytes. All of `Account`'s
//! fields have a fixed size, so the derive puts them all in one unaligned
//! meta struct (`u64`s as zerocopy's little-endian `U64`) behind a
//! zerocopy `Ref`, and all three operations work in place (`InPlace`):
//! `read_owner` takes `zero_copy_at` (`ZAccount`), `full` and
//! `update_amount` take `zero_copy_at_mut` (`ZAccountMut`, the crate's
//! `mut` feature). Both read a prefix and refuse data shorter than 160
//! bytes; nothing else needs validating (every byte pattern is a valid
//! `Account`), and no alignment is required.
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    token::{Account, AccountBytes, InPlace, View, ZAccount, ZAccountMut},
};
use light_zero_copy::traits::{ZeroCopyAt, ZeroCopyAtMut};

struct LightZeroCopy;

impl View for LightZeroCopy {
    type Ref<'a> = ZAccount<'a>;
    type Mut<'a> = ZAccountMut<'a>;

    fn view(data: &AccountBytes) -> Result<ZAccount<'_>, ProgramError> {
        let (account, _rest) = Account::zero_copy_at(data).map_err(invalid_account_data)?;
        Ok(account)
    }

    fn view_mut(data: &mut AccountBytes) -> Result<ZAccountMut<'_>, ProgramError> {
        let (account, _rest) = Account::zero_copy_at_mut(data).map_err(invalid_account_data)?;
        Ok(account)
    }
}

common::token_program!(InPlace<LightZeroCopy>);
