use pinocchio::{AccountView, Address, ProgramResult, error::ProgramError};

/// The operation and its arguments, from the instruction data: the first
/// byte selects it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operation<'a> {
    /// `[0]`: decode/validate the whole message, check the authority, bump
    /// the nonce, write it back.
    Full,
    /// `[1, hash: 32 bytes]`: succeed if `recent_blockhash == hash`.
    ReadBlockhash(&'a [u8; 32]),
    /// `[2]`: every index of every instruction is a valid key index.
    Sanitize,
    /// `[3, index: u16 LE, data...]`: succeed if instruction `index`'s data
    /// is `data`.
    ReadInstruction { index: u16, data: &'a [u8] },
    /// `[4]`: check the authority, append account [1]'s key.
    PushKey,
}

impl<'a> Operation<'a> {
    /// Names, by op byte, as reports show them.
    pub const NAMES: [&'static str; 5] = [
        "full",
        "read_blockhash",
        "sanitize",
        "read_instruction",
        "push_key",
    ];

    #[inline(always)]
    pub fn parse(data: &'a [u8]) -> Result<Self, ProgramError> {
        let short = ProgramError::InvalidInstructionData;
        match data.split_first() {
            Some((0, _)) => Ok(Self::Full),
            Some((1, rest)) => Ok(Self::ReadBlockhash(rest.first_chunk().ok_or(short)?)),
            Some((2, _)) => Ok(Self::Sanitize),
            Some((3, rest)) => {
                let (index, data) = rest.split_first_chunk::<2>().ok_or(short)?;
                Ok(Self::ReadInstruction {
                    index: u16::from_le_bytes(*index),
                    data,
                })
            }
            Some((4, _)) => Ok(Self::PushKey),
            _ => Err(ProgramError::InvalidInstructionData),
        }
    }

    /// Whether the operation writes account [0] (and so needs it writable).
    pub const fn writes(self) -> bool {
        matches!(self, Self::Full | Self::PushKey)
    }
}

/// One format's way of doing the five operations. The dispatch has checked
/// the accounts, the instruction data and the writable flag; the rest
/// (decoding, authority, the operation's own errors) is the format's, in
/// that order.
pub trait Format {
    fn full(data: &mut [u8], authority: &Address) -> ProgramResult;
    fn read_blockhash(data: &[u8], hash: &[u8; 32]) -> ProgramResult;
    fn sanitize(data: &[u8]) -> ProgramResult;
    fn read_instruction(data: &[u8], index: u16, expected: &[u8]) -> ProgramResult;
    /// Grows `account` by exactly what the format needs for one more key.
    fn push_key(account: &mut AccountView, key: &Address) -> ProgramResult;
}

/// The contract every message program shares (the spec's error order):
/// fewer than 2 accounts -> `NotEnoughAccountKeys`; no, unknown or short op
/// -> `InvalidInstructionData`; account [0] read-only for a writing op ->
/// `Immutable`; then the format: undecodable data -> `InvalidAccountData`,
/// authority -> `IncorrectAuthority`, then the operation's own errors.
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
        Operation::ReadBlockhash(hash) => F::read_blockhash(&account.try_borrow()?, hash),
        Operation::Sanitize => F::sanitize(&account.try_borrow()?),
        Operation::ReadInstruction { index, data } => {
            F::read_instruction(&account.try_borrow()?, index, data)
        }
        Operation::PushKey => F::push_key(account, signer.address()),
    }
}

/// `sanitize`, per instruction: every index below `key_count`.
#[inline(always)]
pub fn check_indices(key_count: usize, program_id_index: u8, accounts: &[u8]) -> ProgramResult {
    let valid = |index: &u8| (*index as usize) < key_count;
    if valid(&program_id_index) && accounts.iter().all(valid) {
        Ok(())
    } else {
        Err(ProgramError::InvalidAccountData)
    }
}

/// `read_blockhash` and `read_instruction`: what was found against what the
/// instruction expects.
#[inline(always)]
pub fn check_equal(found: &[u8], expected: &[u8]) -> ProgramResult {
    if found == expected {
        Ok(())
    } else {
        Err(ProgramError::InvalidArgument)
    }
}

/// The heap frame the message family's cases run with, as a transaction
/// requests it (`RequestHeapFrame`): borsh's owned decode of the largest
/// instance grows its `Vec`s by doubling on a bump allocator that never
/// frees, and outgrows the default 32 KiB. The programs' allocator is
/// bounded by it.
pub const HEAP_FRAME: u32 = 64 * 1024;

/// Declares a message program's entrypoint, allocator and panic handler,
/// and routes every instruction through [`dispatch`] to `$format`.
#[macro_export]
macro_rules! message_program {
    ($format:ty) => {
        $crate::__entrypoint!(
            $crate::message::dispatch::<$format>,
            heap = $crate::message::HEAP_FRAME
        );
    };
}
