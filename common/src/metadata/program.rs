use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};

use super::MAX_URI;

/// The operation and its arguments, from the instruction data: the first
/// byte selects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation<'a> {
    /// `[0]`: decode/validate the whole record, check the update
    /// authority, set `primary_sale_happened`, write it back.
    Full,
    /// `[1, key: 32 bytes]`: succeed if the collection is `Some`, verified,
    /// with that key.
    ReadCollection(&'a [u8; 32]),
    /// `[2]`: account [1]'s key is a creator; mark it verified.
    VerifyCreator,
    /// `[3, bps: u16 LE]`: succeed if `seller_fee_basis_points == bps`.
    ReadRoyalty(u16),
    /// `[4, uri...]`: check the update authority, replace the uri.
    SetUri(&'a [u8]),
}

impl<'a> Operation<'a> {
    /// Names, by op byte, as reports show them.
    pub const NAMES: [&'static str; 5] = [
        "full",
        "read_collection",
        "verify_creator",
        "read_royalty",
        "set_uri",
    ];

    #[inline(always)]
    pub fn parse(data: &'a [u8]) -> Result<Self, ProgramError> {
        let short = ProgramError::InvalidInstructionData;
        match data.split_first() {
            Some((0, _)) => Ok(Self::Full),
            Some((1, rest)) => Ok(Self::ReadCollection(rest.first_chunk().ok_or(short)?)),
            Some((2, _)) => Ok(Self::VerifyCreator),
            Some((3, rest)) => Ok(Self::ReadRoyalty(u16::from_le_bytes(
                *rest.first_chunk().ok_or(short)?,
            ))),
            Some((4, uri)) => Ok(Self::SetUri(uri)),
            _ => Err(ProgramError::InvalidInstructionData),
        }
    }

    /// Whether the operation writes account [0] (and so needs it writable).
    pub const fn writes(self) -> bool {
        matches!(self, Self::Full | Self::VerifyCreator | Self::SetUri(_))
    }
}

/// One format's way of doing the five operations. The dispatch has checked
/// the accounts, the instruction data and the writable flag; the rest
/// (decoding, authority, the operation's own errors) is the format's, in
/// that order. The account's length never changes: a write that shortens
/// the encoding zeroes what it frees.
pub trait Format {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult;
    fn read_collection(data: &[u8], key: &[u8; 32]) -> ProgramResult;
    fn verify_creator(data: &mut [u8], creator: &Address) -> ProgramResult;
    fn read_royalty(data: &[u8], bps: u16) -> ProgramResult;
    fn set_uri(data: &mut [u8], authority: &Address, uri: &[u8]) -> ProgramResult;
}

/// The contract every metadata program shares (the spec's error order):
/// fewer than 2 accounts -> `NotEnoughAccountKeys`; no, unknown or short op
/// -> `InvalidInstructionData`; account [0] read-only for a writing op ->
/// `Immutable`; then the format: undecodable or invalid record ->
/// `InvalidAccountData`, authority -> `IncorrectAuthority`, then the
/// operation's own errors (`InvalidArgument`).
#[inline(always)]
pub fn dispatch<F: Format>(accounts: &mut [AccountView], instruction_data: &[u8]) -> ProgramResult {
    let [account, signer, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let operation = Operation::parse(instruction_data)?;
    if operation.writes() && !account.is_writable() {
        return Err(ProgramError::Immutable);
    }
    match operation {
        Operation::Full => F::full(&mut account.try_borrow_mut()?, signer.address()),
        Operation::ReadCollection(key) => F::read_collection(&account.try_borrow()?, key),
        Operation::VerifyCreator => {
            F::verify_creator(&mut account.try_borrow_mut()?, signer.address())
        }
        Operation::ReadRoyalty(bps) => F::read_royalty(&account.try_borrow()?, bps),
        Operation::SetUri(uri) => F::set_uri(&mut account.try_borrow_mut()?, signer.address(), uri),
    }
}

/// `set_uri`'s own checks, after the authority: the record is mutable, and
/// the new uri is UTF-8 of at most [`MAX_URI`] bytes.
#[inline(always)]
pub fn check_new_uri(is_mutable: bool, uri: &[u8]) -> Result<&str, ProgramError> {
    match core::str::from_utf8(uri) {
        Ok(uri) if is_mutable && uri.len() <= MAX_URI => Ok(uri),
        _ => Err(ProgramError::InvalidArgument),
    }
}

/// Replaces the borsh string at `at` (a `u32` length, then `old_len`
/// bytes) in a record that ends at `end` with `new`: what follows it moves,
/// and what a shorter string frees is zeroed. `InvalidAccountData` where
/// the record would pass the account's end.
#[inline(always)]
pub fn replace_borsh_string(
    data: &mut [u8],
    at: usize,
    old_len: usize,
    end: usize,
    new: &[u8],
) -> ProgramResult {
    let old_end = at + 4 + old_len;
    let new_end = end - old_end + at + 4 + new.len();
    if new_end > data.len() {
        return Err(ProgramError::InvalidAccountData);
    }
    let moved_to = at + 4 + new.len();
    data.copy_within(old_end..end, moved_to);
    data[at..at + 4].copy_from_slice(&(new.len() as u32).to_le_bytes());
    data[at + 4..moved_to].copy_from_slice(new);
    if let Some(freed) = data.get_mut(new_end..end) {
        freed.fill(0);
    }
    Ok(())
}

/// The heap frame the metadata family's cases run with: the runtime's
/// default, 32 KiB (the spec's; an owned decode of the largest record
/// allocates well under 1 KiB). The programs' allocator is bounded by it.
pub const HEAP_FRAME: u32 = 32 * 1024;

/// Declares a metadata program's entrypoint, allocator and panic handler,
/// and routes every instruction through [`dispatch`] to `$format`.
#[macro_export]
macro_rules! metadata_program {
    ($format:ty) => {
        $crate::__entrypoint!(
            $crate::metadata::dispatch::<$format>,
            heap = $crate::metadata::HEAP_FRAME
        );
    };
}
