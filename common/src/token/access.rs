//! The two ways a serializer meets the operations: borrowing the bytes in
//! place, or decoding into an owned value and encoding it back. A program
//! implements the crate's side (`View` or `Codec`); the operations are
//! written once, here, so every crate of a kind runs the same code.

use core::marker::PhantomData;

use pinocchio::{Address, ProgramResult, error::ProgramError};

use super::{Account, AccountBytes, Operations};

/// A crate that borrows the account bytes as an `Account` in place.
pub trait View {
    fn view(data: &AccountBytes) -> Result<&Account, ProgramError>;
    fn view_mut(data: &mut AccountBytes) -> Result<&mut Account, ProgramError>;
}

/// A crate that decodes the bytes into an owned `Account` and encodes one
/// back.
pub trait Codec {
    fn decode(data: &AccountBytes) -> Result<Account, ProgramError>;
    fn encode(account: &Account, data: &mut AccountBytes) -> ProgramResult;
}

/// The three operations on the bytes in place, through a [`View`].
pub struct InPlace<V>(PhantomData<V>);

impl<V: View> Operations for InPlace<V> {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let account = V::view_mut(data)?;
        account.check_owner(owner)?;
        account.update();
        Ok(())
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        V::view(data)?.check_owner(owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        V::view_mut(data)?.update();
        Ok(())
    }
}

/// The three operations as owned round trips, through a [`Codec`]: every
/// operation decodes the whole `Account`, and the writing ones encode it
/// back.
pub struct RoundTrip<C>(PhantomData<C>);

impl<C: Codec> Operations for RoundTrip<C> {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let mut account = C::decode(data)?;
        account.check_owner(owner)?;
        account.update();
        C::encode(&account, data)
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        C::decode(data)?.check_owner(owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        let mut account = C::decode(data)?;
        account.update();
        C::encode(&account, data)
    }
}
