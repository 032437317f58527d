//! The `metadata` family (shared/specs/metadata-family.md): an NFT
//! metadata-like record with strings, options, enums and fixed fields after
//! variable ones, in an account allocated at its format's largest encoding.
//! So far the record and the host codecs; the programs come next.

#[cfg(feature = "host")]
mod formats;
mod record;

#[cfg(feature = "host")]
pub use formats::{HOST_FORMATS, HostFormat, host_format};
pub use record::{
    Collection, CollectionDetails, Creator, Key, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI,
    Metadata, ProgrammableConfig, TokenStandard, UseMethod, Uses,
};
