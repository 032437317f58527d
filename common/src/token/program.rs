use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};

use super::{
    Account, Bytes, Operation,
    shape::{bytes, bytes_mut, len_ok},
};

/// One serializer's way of doing the three operations. The dispatch has
/// already checked everything but the owner (and, in the `unchecked` shape,
/// the length, which the crate's own API checks). `LEN` is the account's
/// length: 160, or the format's own encoding's (see [`super::shape`]).
pub trait Operations<const LEN: usize = { Account::LEN }> {
    /// Decode the whole account, check the owner, update, encode it back.
    fn full(data: &mut Bytes<LEN>, owner: &Address) -> ProgramResult;
    /// Check the owner; write nothing.
    fn read_owner(data: &Bytes<LEN>, owner: &Address) -> ProgramResult;
    /// Set `state` and `amount`, keeping every other field.
    fn update_amount(data: &mut Bytes<LEN>) -> ProgramResult;
}

/// The contract every token program shares. Checks run in this order, and
/// any failure leaves the account untouched: fewer than 2 accounts ->
/// `NotEnoughAccountKeys`; no or unknown op byte -> `InvalidInstructionData`;
/// the shape's length check -> `InvalidAccountData`; account [0] read-only
/// for a writing op -> `Immutable`; then the operation (owner check ->
/// `IncorrectAuthority`; in the `unchecked` shape the crate's length check
/// comes first).
#[inline(always)]
pub fn dispatch<O: Operations<LEN>, const LEN: usize>(
    accounts: &mut [AccountView],
    instruction_data: &[u8],
) -> ProgramResult {
    let [account, owner, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let operation = Operation::from_instruction_data(instruction_data)?;
    if !len_ok::<LEN>(account.data_len()) {
        return Err(ProgramError::InvalidAccountData);
    }
    if operation.writes() && !account.is_writable() {
        return Err(ProgramError::Immutable);
    }
    match operation {
        Operation::ReadOwner => {
            O::read_owner(bytes::<LEN>(&account.try_borrow()?)?, owner.address())
        }
        Operation::Full => O::full(
            bytes_mut::<LEN>(&mut account.try_borrow_mut()?)?,
            owner.address(),
        ),
        Operation::UpdateAmount => {
            O::update_amount(bytes_mut::<LEN>(&mut account.try_borrow_mut()?)?)
        }
    }
}

/// The heap frame the token family's cases run with: the runtime's
/// default, 32 KiB (no token operation needs more; a larger frame costs
/// every row 8 CUs per 32 KiB). The programs' allocator is bounded by it.
pub const HEAP_FRAME: u32 = 32 * 1024;

/// Declares a token program's entrypoint, allocator and panic handler, and
/// routes every instruction through [`dispatch`] to `$operations`, for an
/// account of 160 bytes or, with `len = ...`, of the format's own length.
/// With the `solana-program` feature the entrypoint is solana-program's
/// and the dispatch [`super::native::dispatch`] (see [`crate::native`]).
#[cfg(not(feature = "solana-program"))]
#[macro_export]
macro_rules! token_program {
    ($operations:ty) => {
        $crate::token_program!($operations, len = $crate::token::Account::LEN);
    };
    ($operations:ty, len = $len:expr) => {
        $crate::__entrypoint!(
            $crate::token::dispatch::<$operations, { $len }>,
            heap = $crate::token::HEAP_FRAME
        );
    };
}

/// [`token_program!`] on solana-program's entrypoint.
#[cfg(feature = "solana-program")]
#[macro_export]
macro_rules! token_program {
    ($operations:ty) => {
        $crate::token_program!($operations, len = $crate::token::Account::LEN);
    };
    ($operations:ty, len = $len:expr) => {
        $crate::__native_entrypoint!($crate::token::native::dispatch::<$operations, { $len }>);
    };
}
