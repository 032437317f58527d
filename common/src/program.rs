use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};

use crate::{Account, Operation};

/// The account data once its length is checked: every operation sees a
/// fixed-size array, whatever the crate.
pub type AccountBytes = [u8; Account::LEN];

/// One serializer's way of doing the three operations. The dispatch has
/// already checked everything but the owner.
pub trait Operations {
    /// Decode the whole account, check the owner, update, encode it back.
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult;
    /// Check the owner; write nothing.
    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult;
    /// Set `state` and `amount`, keeping every other byte.
    fn update_amount(data: &mut AccountBytes) -> ProgramResult;
}

/// The contract every program shares. Checks run in this order, and any
/// failure leaves the account untouched:
/// fewer than 2 accounts -> `NotEnoughAccountKeys`; no or unknown op byte ->
/// `InvalidInstructionData`; data length != 160 -> `InvalidAccountData`;
/// account [0] read-only for a writing op -> `Immutable`; then the owner
/// check of the operation -> `IncorrectAuthority`.
#[inline(always)]
pub fn dispatch<O: Operations>(
    accounts: &mut [AccountView],
    instruction_data: &[u8],
) -> ProgramResult {
    let [account, owner, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let operation = Operation::from_instruction_data(instruction_data)?;
    if account.data_len() != Account::LEN {
        return Err(ProgramError::InvalidAccountData);
    }
    if operation.writes() && !account.is_writable() {
        return Err(ProgramError::Immutable);
    }
    match operation {
        Operation::ReadOwner => O::read_owner(fixed(&account.try_borrow()?)?, owner.address()),
        Operation::Full => O::full(fixed_mut(&mut account.try_borrow_mut()?)?, owner.address()),
        Operation::UpdateAmount => O::update_amount(fixed_mut(&mut account.try_borrow_mut()?)?),
    }
}

#[inline(always)]
fn fixed(data: &[u8]) -> Result<&AccountBytes, ProgramError> {
    data.try_into()
        .map_err(|_| ProgramError::InvalidAccountData)
}

#[inline(always)]
fn fixed_mut(data: &mut [u8]) -> Result<&mut AccountBytes, ProgramError> {
    data.try_into()
        .map_err(|_| ProgramError::InvalidAccountData)
}

/// Declares a program's entrypoint, allocator and panic handler, and routes
/// every instruction through [`dispatch`] to `$operations`.
#[macro_export]
macro_rules! program {
    ($operations:ty) => {
        // Two accounts at most are parsed; extra ones are ignored.
        $crate::pinocchio::program_entrypoint!(process_instruction, 2);
        $crate::pinocchio::default_allocator!();
        $crate::pinocchio::nostd_panic_handler!();

        fn process_instruction(
            _program_id: &$crate::Address,
            accounts: &mut [$crate::AccountView],
            instruction_data: &[u8],
        ) -> $crate::ProgramResult {
            $crate::dispatch::<$operations>(accounts, instruction_data)
        }
    };
}
