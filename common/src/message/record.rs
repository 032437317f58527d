//! The logical record of the message family, and the crates' derives on it.

use alloc::vec::Vec;

use pinocchio::{ProgramResult, error::ProgramError};

/// A stored transaction message: variable-length keys and instructions,
/// with a fixed field (`recent_blockhash`) after the keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "borsh",
    derive(borsh::BorshSerialize, borsh::BorshDeserialize)
)]
#[cfg_attr(feature = "bincode", derive(bincode::Encode, bincode::Decode))]
#[cfg_attr(feature = "wincode", derive(wincode::SchemaWrite, wincode::SchemaRead))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "light-zero-copy",
    derive(light_zero_copy::ZeroCopy, light_zero_copy::ZeroCopyMut)
)]
#[cfg_attr(
    feature = "rkyv",
    derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)
)]
// light-zero-copy's derive requires it. Only in its build: the layout of
// the decoded value moves every other crate's numbers.
#[cfg_attr(feature = "light-zero-copy", repr(C))]
pub struct Message {
    pub authority: [u8; 32],
    pub nonce: u64,
    /// At most [`MAX_KEYS`]: instructions index them with a `u8`.
    pub account_keys: Vec<[u8; 32]>,
    pub recent_blockhash: [u8; 32],
    pub instructions: Vec<Instruction>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "borsh",
    derive(borsh::BorshSerialize, borsh::BorshDeserialize)
)]
#[cfg_attr(feature = "bincode", derive(bincode::Encode, bincode::Decode))]
#[cfg_attr(feature = "wincode", derive(wincode::SchemaWrite, wincode::SchemaRead))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "light-zero-copy",
    derive(light_zero_copy::ZeroCopy, light_zero_copy::ZeroCopyMut)
)]
#[cfg_attr(
    feature = "rkyv",
    derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)
)]
// light-zero-copy's derive requires it. Only in its build: the layout of
// the decoded value moves every other crate's numbers.
#[cfg_attr(feature = "light-zero-copy", repr(C))]
pub struct Instruction {
    pub program_id_index: u8,
    /// Indices into `account_keys`.
    pub accounts: Vec<u8>,
    pub data: Vec<u8>,
}

/// The most keys a message holds: indices are `u8`.
pub const MAX_KEYS: usize = 255;

/// What the owned operations need of a decoded message, whatever type a
/// crate decodes it into.
pub trait Record {
    fn authority(&self) -> &[u8; 32];
    fn recent_blockhash(&self) -> &[u8; 32];
    fn key_count(&self) -> usize;
    fn instruction_count(&self) -> usize;
    /// `(program_id_index, accounts, data)` of instruction `index`.
    fn instruction(&self, index: usize) -> Option<(u8, &[u8], &[u8])>;

    /// `f` on every instruction's `(program_id_index, accounts, data)`, in
    /// order, up to the first error. A view that can iterate its list
    /// overrides this: walking by index costs it a bounds check each.
    #[inline(always)]
    fn try_for_each_instruction(
        &self,
        mut f: impl FnMut(u8, &[u8], &[u8]) -> ProgramResult,
    ) -> ProgramResult {
        (0..self.instruction_count()).try_for_each(|i| {
            let (program, accounts, data) = self
                .instruction(i)
                .ok_or(ProgramError::InvalidAccountData)?;
            f(program, accounts, data)
        })
    }
}

/// What the writing operations need besides.
pub trait RecordMut: Record {
    fn nonce_mut(&mut self) -> &mut u64;
    fn account_keys_mut(&mut self) -> &mut Vec<[u8; 32]>;
}

/// Implements [`Record`] (and, with `mut`, [`RecordMut`]) for a type with
/// `Message`'s fields and an instruction type with `Instruction`'s: the
/// decoded types, and (with `iter`) the zero-copy crates' views, whose
/// instruction lists iterate cheaper than they index.
macro_rules! record {
    ($message:ty) => {
        record!($message, {});
    };
    ($message:ty, iter) => {
        record!($message, {
            fn try_for_each_instruction(
                &self,
                mut f: impl FnMut(u8, &[u8], &[u8]) -> ProgramResult,
            ) -> ProgramResult {
                self.instructions
                    .iter()
                    .try_for_each(|ix| f(ix.program_id_index, &ix.accounts, &ix.data))
            }
        });
    };
    ($message:ty, mut) => {
        record!($message);
        impl $crate::message::RecordMut for $message {
            fn nonce_mut(&mut self) -> &mut u64 {
                &mut self.nonce
            }
            fn account_keys_mut(&mut self) -> &mut alloc::vec::Vec<[u8; 32]> {
                &mut self.account_keys
            }
        }
    };
    ($message:ty, { $($extra:tt)* }) => {
        impl $crate::message::Record for $message {
            fn authority(&self) -> &[u8; 32] {
                &self.authority
            }
            fn recent_blockhash(&self) -> &[u8; 32] {
                &self.recent_blockhash
            }
            fn key_count(&self) -> usize {
                self.account_keys.len()
            }
            fn instruction_count(&self) -> usize {
                self.instructions.len()
            }
            fn instruction(&self, index: usize) -> Option<(u8, &[u8], &[u8])> {
                let ix = self.instructions.get(index)?;
                Some((ix.program_id_index, &ix.accounts, &ix.data))
            }
            $($extra)*
        }
    };
}

record!(Message, mut);
#[cfg(feature = "rkyv")]
record!(ArchivedMessage, iter);
#[cfg(feature = "light-zero-copy")]
record!(ZMessage<'_>, iter);

/// A message as wincode borrows it: keys, accounts and data are slices of
/// the account data, only the instruction list is allocated.
#[cfg(feature = "wincode")]
#[derive(Clone, Debug, PartialEq, Eq, wincode::SchemaRead)]
pub struct MessageRef<'a> {
    pub authority: [u8; 32],
    pub nonce: u64,
    pub account_keys: &'a [[u8; 32]],
    pub recent_blockhash: [u8; 32],
    pub instructions: Vec<InstructionRef<'a>>,
}

#[cfg(feature = "wincode")]
#[derive(Clone, Debug, PartialEq, Eq, wincode::SchemaRead)]
pub struct InstructionRef<'a> {
    pub program_id_index: u8,
    pub accounts: &'a [u8],
    pub data: &'a [u8],
}

#[cfg(feature = "wincode")]
record!(MessageRef<'_>);

/// The same record with Solana's compact-u16 length prefixes (the
/// transaction message encoding), through wincode's containers.
#[cfg(feature = "wincode_short")]
#[derive(Clone, Debug, Default, PartialEq, Eq, wincode::SchemaWrite, wincode::SchemaRead)]
pub struct ShortMessage {
    pub authority: [u8; 32],
    pub nonce: u64,
    #[wincode(with = "wincode::containers::Vec<[u8; 32], solana_short_vec::ShortU16>")]
    pub account_keys: Vec<[u8; 32]>,
    pub recent_blockhash: [u8; 32],
    #[wincode(with = "wincode::containers::Vec<ShortInstruction, solana_short_vec::ShortU16>")]
    pub instructions: Vec<ShortInstruction>,
}

#[cfg(feature = "wincode_short")]
#[derive(Clone, Debug, Default, PartialEq, Eq, wincode::SchemaWrite, wincode::SchemaRead)]
pub struct ShortInstruction {
    pub program_id_index: u8,
    #[wincode(with = "wincode::containers::Vec<u8, solana_short_vec::ShortU16>")]
    pub accounts: Vec<u8>,
    #[wincode(with = "wincode::containers::Vec<u8, solana_short_vec::ShortU16>")]
    pub data: Vec<u8>,
}

#[cfg(feature = "wincode_short")]
record!(ShortMessage, mut);

#[cfg(feature = "wincode_short")]
impl From<&Message> for ShortMessage {
    fn from(m: &Message) -> Self {
        Self {
            authority: m.authority,
            nonce: m.nonce,
            account_keys: m.account_keys.clone(),
            recent_blockhash: m.recent_blockhash,
            instructions: m
                .instructions
                .iter()
                .map(|ix| ShortInstruction {
                    program_id_index: ix.program_id_index,
                    accounts: ix.accounts.clone(),
                    data: ix.data.clone(),
                })
                .collect(),
        }
    }
}

#[cfg(feature = "wincode_short")]
impl From<&ShortMessage> for Message {
    fn from(m: &ShortMessage) -> Self {
        Self {
            authority: m.authority,
            nonce: m.nonce,
            account_keys: m.account_keys.clone(),
            recent_blockhash: m.recent_blockhash,
            instructions: m
                .instructions
                .iter()
                .map(|ix| Instruction {
                    program_id_index: ix.program_id_index,
                    accounts: ix.accounts.clone(),
                    data: ix.data.clone(),
                })
                .collect(),
        }
    }
}
