//! The token family's dispatch over solana-program's `AccountInfo`: the
//! contract of [`super::dispatch`], check for check, with the account data
//! borrowed as native programs borrow it (`try_borrow_data`,
//! `try_borrow_mut_data`).

use solana_program::account_info::AccountInfo;

use super::{
    Operation, Operations,
    shape::{bytes, bytes_mut, len_ok},
};
use crate::{ProgramError, ProgramResult};

/// [`super::dispatch`] for a program on solana-program's entrypoint.
#[inline(always)]
pub fn dispatch<O: Operations<LEN>, const LEN: usize>(
    accounts: &[AccountInfo],
    instruction_data: &[u8],
) -> ProgramResult {
    let [account, owner, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let operation = Operation::from_instruction_data(instruction_data)?;
    if !len_ok::<LEN>(account.data_len()) {
        return Err(ProgramError::InvalidAccountData);
    }
    if operation.writes() && !account.is_writable {
        return Err(ProgramError::Immutable);
    }
    match operation {
        Operation::ReadOwner => {
            O::read_owner(bytes::<LEN>(&account.try_borrow_data()?)?, owner.key)
        }
        Operation::Full => O::full(
            bytes_mut::<LEN>(&mut account.try_borrow_mut_data()?)?,
            owner.key,
        ),
        Operation::UpdateAmount => {
            O::update_amount(bytes_mut::<LEN>(&mut account.try_borrow_mut_data()?)?)
        }
    }
}
