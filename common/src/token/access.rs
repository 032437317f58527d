//! The two ways a serializer meets the operations: borrowing the bytes in
//! place, or decoding into an owned value and encoding it back. A program
//! implements the crate's side (`View` or `Codec`); the operations are
//! written once, here, so every crate of a kind runs the same code.

use core::marker::PhantomData;

use pinocchio::{Address, ProgramResult, error::ProgramError};

use super::{Account, AccountBytes, Bytes, NEW_AMOUNT, NEW_STATE, Operations};

/// What the operations read of an account, whatever type a crate reads it
/// as (`Account`, a borrow of it, or the crate's own view of its layout).
pub trait Fields {
    fn owner(&self) -> &[u8; 32];
}

/// What `full` and `update_amount` write.
pub trait FieldsMut: Fields {
    fn set_state(&mut self, state: u8);
    fn set_amount(&mut self, amount: u64);
}

impl Fields for Account {
    #[inline(always)]
    fn owner(&self) -> &[u8; 32] {
        &self.owner
    }
}

impl FieldsMut for Account {
    #[inline(always)]
    fn set_state(&mut self, state: u8) {
        self.state = state;
    }

    #[inline(always)]
    fn set_amount(&mut self, amount: u64) {
        self.amount = amount;
    }
}

// A borrow of an account is read and written like the account.
impl<T: Fields + ?Sized> Fields for &T {
    #[inline(always)]
    fn owner(&self) -> &[u8; 32] {
        (**self).owner()
    }
}

impl<T: Fields + ?Sized> Fields for &mut T {
    #[inline(always)]
    fn owner(&self) -> &[u8; 32] {
        (**self).owner()
    }
}

impl<T: FieldsMut + ?Sized> FieldsMut for &mut T {
    #[inline(always)]
    fn set_state(&mut self, state: u8) {
        (**self).set_state(state);
    }

    #[inline(always)]
    fn set_amount(&mut self, amount: u64) {
        (**self).set_amount(amount);
    }
}

/// The owner check of `full` and `read_owner`: the stored owner against
/// the key of account [1].
#[inline(always)]
fn check_owner(account: &impl Fields, key: &Address) -> ProgramResult {
    if account.owner() == key.as_array() {
        Ok(())
    } else {
        Err(ProgramError::IncorrectAuthority)
    }
}

/// The change `full` and `update_amount` make.
#[inline(always)]
fn update(account: &mut impl FieldsMut) {
    account.set_state(NEW_STATE);
    account.set_amount(NEW_AMOUNT);
}

/// A crate that borrows the account bytes in place: as `&Account` where
/// its layout is `Account`'s, or as the crate's own view of it.
pub trait View {
    type Ref<'a>: Fields;
    type Mut<'a>: FieldsMut;
    fn view(data: &AccountBytes) -> Result<Self::Ref<'_>, ProgramError>;
    fn view_mut(data: &mut AccountBytes) -> Result<Self::Mut<'_>, ProgramError>;
}

/// A crate that decodes the bytes into an owned `Account` and encodes one
/// back, in an account of `LEN` bytes (see [`super::shape`]).
pub trait Codec<const LEN: usize = { Account::LEN }> {
    /// Whether the encoding's length follows the values (varints). Then,
    /// in the `unchecked` shape, which may hand the crate fewer than `LEN`
    /// bytes, a write sizes the encoding before its first byte: an encoder
    /// into a slice writes as it goes and fails where the slice ends.
    const LENGTH_MAY_CHANGE: bool = false;
    /// The encoding's length, from the crate's own size computation; for a
    /// fixed-length encoding (the default) `LEN`.
    fn encoded_len(_account: &Account) -> Result<usize, ProgramError> {
        Ok(LEN)
    }
    fn decode(data: &Bytes<LEN>) -> Result<Account, ProgramError>;
    /// Writes the encoding at the start of `data`; where it is shorter than
    /// the account, the bytes after it are left as they were.
    fn encode(account: &Account, data: &mut Bytes<LEN>) -> ProgramResult;
}

/// The three operations on the bytes in place, through a [`View`].
pub struct InPlace<V>(PhantomData<V>);

impl<V: View> Operations for InPlace<V> {
    fn full(data: &mut AccountBytes, owner: &Address) -> ProgramResult {
        let mut account = V::view_mut(data)?;
        check_owner(&account, owner)?;
        update(&mut account);
        Ok(())
    }

    fn read_owner(data: &AccountBytes, owner: &Address) -> ProgramResult {
        check_owner(&V::view(data)?, owner)
    }

    fn update_amount(data: &mut AccountBytes) -> ProgramResult {
        update(&mut V::view_mut(data)?);
        Ok(())
    }
}

/// The three operations as owned round trips, through a [`Codec`]: every
/// operation decodes the whole `Account`, and the writing ones encode it
/// back.
pub struct RoundTrip<C>(PhantomData<C>);

/// Encodes `account` over `data`, refusing first what would not fit (only
/// a varint encoding in a shape that checks no length can fail to).
#[inline(always)]
fn write_back<const LEN: usize, C: Codec<LEN>>(
    account: &Account,
    data: &mut Bytes<LEN>,
) -> ProgramResult {
    if C::LENGTH_MAY_CHANGE && cfg!(feature = "unchecked") && C::encoded_len(account)? > data.len()
    {
        return Err(ProgramError::InvalidAccountData);
    }
    C::encode(account, data)
}

impl<const LEN: usize, C: Codec<LEN>> Operations<LEN> for RoundTrip<C> {
    fn full(data: &mut Bytes<LEN>, owner: &Address) -> ProgramResult {
        let mut account = C::decode(data)?;
        check_owner(&account, owner)?;
        update(&mut account);
        write_back::<LEN, C>(&account, data)
    }

    fn read_owner(data: &Bytes<LEN>, owner: &Address) -> ProgramResult {
        check_owner(&C::decode(data)?, owner)
    }

    fn update_amount(data: &mut Bytes<LEN>) -> ProgramResult {
        let mut account = C::decode(data)?;
        update(&mut account);
        write_back::<LEN, C>(&account, data)
    }
}
