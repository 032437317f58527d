//! The `message` family (docs/message.md): a stored
//! transaction message with variable-length keys and instructions, five
//! operations on it, and the layouts the hand-written formats share.

#[cfg(feature = "host")]
mod formats;
pub mod offset_table;
mod owned;
mod program;
mod record;

pub use crate::check_authority;
#[cfg(feature = "host")]
pub use formats::{HOST_FORMATS, HostFormat, host_format};
pub use owned::{Codec, Owned, read_instruction, sanitize};
pub use program::{Format, HEAP_FRAME, Operation, check_equal, check_indices, dispatch};
#[cfg(feature = "rkyv")]
pub use record::{ArchivedInstruction, ArchivedMessage};
pub use record::{Instruction, MAX_KEYS, Message, Record, RecordMut};
#[cfg(feature = "wincode")]
pub use record::{InstructionRef, MessageRef};
#[cfg(feature = "wincode_short")]
pub use record::{ShortInstruction, ShortMessage};
#[cfg(feature = "light-zero-copy")]
pub use record::{ZInstruction, ZMessage, ZMessageMut};
