//! The `metadata` family (shared/specs/metadata-family.md): an NFT
//! metadata-like record with strings, options, enums and fixed fields after
//! variable ones, in an account allocated at its format's largest encoding.

#[cfg(feature = "host")]
mod formats;
mod owned;
mod program;
mod record;

pub use crate::check_authority;
#[cfg(feature = "host")]
pub use formats::{HOST_FORMATS, HostFormat, host_format};
pub use owned::{Codec, Owned};
pub use program::{Format, HEAP_FRAME, Operation, check_new_uri, dispatch};
pub use record::{
    Collection, CollectionDetails, Creator, Key, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI,
    Metadata, ProgrammableConfig, TokenStandard, UseMethod, Uses,
};
