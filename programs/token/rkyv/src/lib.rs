//! rkyv: `Account`'s archived form (`ArchivedAccount`: byte arrays, `u8`s
//! and little-endian `u64`s, 8-byte aligned, in field order) is the same
//! 160 bytes as the raw layout, so all three operations work in place
//! (`InPlace`). `read_owner` takes `access_pos` (checked: bounds, alignment
//! and every field's validity through bytecheck) at position 0; `full` and
//! `update_amount` take `access_pos_mut` and write through the `Seal` it
//! returns. The root is read at position 0, not at the buffer's end where
//! `access` looks, so that an account longer than 160 bytes (`at_least`,
//! `unchecked`) is read at its start like every other crate's; in the
//! `exact` shape both positions are 0. Errors are `rancor::Failure`, which
//! carries nothing and needs no allocation.
//!
//! Alignment: rkyv checks that the root is aligned for `ArchivedAccount`
//! (8 bytes, for its `u64`s). The runtime places account data at 8-byte
//! alignment, so the check passes; a buffer at an odd address would be
//! refused, not misread.
//!
//! rkyv also offers `access_unchecked(_mut)` (`unsafe`, no validation);
//! this program takes the checked path, as the crate's docs advise for
//! untrusted bytes.
#![no_std]

use common::{
    ProgramError, invalid_account_data,
    token::{AccountBytes, ArchivedAccount, InPlace, View},
};
use rkyv::{
    api::high::{access_pos, access_pos_mut},
    rancor::Failure,
    seal::Seal,
};

struct Rkyv;

impl View for Rkyv {
    type Ref<'a> = &'a ArchivedAccount;
    type Mut<'a> = Seal<'a, ArchivedAccount>;

    fn view(data: &AccountBytes) -> Result<&ArchivedAccount, ProgramError> {
        access_pos::<ArchivedAccount, Failure>(data, 0).map_err(invalid_account_data)
    }

    fn view_mut(data: &mut AccountBytes) -> Result<Seal<'_, ArchivedAccount>, ProgramError> {
        access_pos_mut::<ArchivedAccount, Failure>(data, 0).map_err(invalid_account_data)
    }
}

common::token_program!(InPlace<Rkyv>);
