//! The `metadata` family (docs/metadata.md): an NFT
//! metadata-like record with strings, options, enums and fixed fields after
//! variable ones, in an account allocated at its format's largest encoding.

mod fixed_capacity;
mod fixed_first;
#[cfg(feature = "host")]
mod formats;
#[cfg(feature = "light-zero-copy")]
mod light;
mod owned;
mod program;
mod record;

pub use crate::check_authority;
pub use fixed_capacity::{FIXED_CAPACITY_LEN, FixedCapacity, FixedCreator};
pub use fixed_first::FixedFirst;
#[cfg(feature = "zeropod")]
pub use fixed_first::FixedFirstView;
#[cfg(feature = "host")]
pub use formats::{HOST_FORMATS, HostFormat, host_format};
#[cfg(feature = "light-zero-copy")]
pub use light::*;
pub use owned::{Codec, Owned};
pub use program::{Format, HEAP_FRAME, Operation, check_new_uri, dispatch, replace_borsh_string};
#[cfg(feature = "zeropod")]
pub use record::KeyRef;
#[cfg(feature = "rkyv")]
pub use record::{ArchivedCreator, ArchivedKey, ArchivedMetadata};
pub use record::{
    Collection, CollectionDetails, Creator, Key, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI,
    Metadata, ProgrammableConfig, TokenStandard, UseMethod, Uses,
};

#[cfg(feature = "wincode")]
pub use crate::WINCODE_BORSH;

/// Where the rkyv program's archive starts: after its length (`u64` LE),
/// which the account must hold since rkyv's root sits at the archive's
/// end, not at a fixed place in an account allocated at its largest size.
/// Eight bytes keep the archive at the data's 8-byte alignment.
pub const ARCHIVE_AT: usize = 8;
