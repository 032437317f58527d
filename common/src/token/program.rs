use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};

use super::{
    AccountBytes, Operation,
    shape::{bytes, bytes_mut, len_ok},
};

/// One serializer's way of doing the three operations. The dispatch has
/// already checked everything but the owner (and, in the `unchecked` shape,
/// the length, which the crate's own API checks).
pub trait Operations {
    /// Decode the whole account, check the owner, update, encode it back.
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult;
    /// Check the owner; write nothing.
    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult;
    /// Set `state` and `amount`, keeping every other byte.
    fn update_amount(data: &mut AccountBytes) -> ProgramResult;
}

/// The contract every token program shares. Checks run in this order, and
/// any failure leaves the account untouched: fewer than 2 accounts ->
/// `NotEnoughAccountKeys`; no or unknown op byte -> `InvalidInstructionData`;
/// the shape's length check -> `InvalidAccountData`; account [0] read-only
/// for a writing op -> `Immutable`; then the operation (owner check ->
/// `IncorrectAuthority`; in the `unchecked` shape the crate's length check
/// comes first).
#[inline(always)]
pub fn dispatch<O: Operations>(
    accounts: &mut [AccountView],
    instruction_data: &[u8],
) -> ProgramResult {
    let [account, owner, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let operation = Operation::from_instruction_data(instruction_data)?;
    if !len_ok(account.data_len()) {
        return Err(ProgramError::InvalidAccountData);
    }
    if operation.writes() && !account.is_writable() {
        return Err(ProgramError::Immutable);
    }
    match operation {
        Operation::ReadOwner => O::read_owner(bytes(&account.try_borrow()?)?, owner.address()),
        Operation::Full => O::full(bytes_mut(&mut account.try_borrow_mut()?)?, owner.address()),
        Operation::UpdateAmount => O::update_amount(bytes_mut(&mut account.try_borrow_mut()?)?),
    }
}

/// Declares a token program's entrypoint, allocator and panic handler, and
/// routes every instruction through [`dispatch`] to `$operations`.
#[macro_export]
macro_rules! token_program {
    ($operations:ty) => {
        $crate::__entrypoint!($crate::token::dispatch::<$operations>);
    };
}
