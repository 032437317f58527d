//! The `metadata` family (shared/specs/metadata-family.md): an NFT
//! metadata-like record with strings, options, enums and fixed fields after
//! variable ones, in an account allocated at its format's largest encoding.

mod fixed_first;
#[cfg(feature = "host")]
mod formats;
mod owned;
mod program;
mod record;

pub use crate::check_authority;
pub use fixed_first::FixedFirst;
#[cfg(feature = "zeropod")]
pub use fixed_first::FixedFirstView;
#[cfg(feature = "host")]
pub use formats::{HOST_FORMATS, HostFormat, host_format};
pub use owned::{Codec, Owned};
pub use program::{Format, HEAP_FRAME, Operation, check_new_uri, dispatch};
#[cfg(feature = "zeropod")]
pub use record::KeyRef;
pub use record::{
    Collection, CollectionDetails, Creator, Key, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI,
    Metadata, ProgrammableConfig, TokenStandard, UseMethod, Uses,
};

/// wincode writing borsh's bytes (`u32` counts, `u8` tags), as Anchor 2's
/// `BorshAccount` reads its accounts, with preallocation capped at 4 KiB
/// (wincode's default is 4 MiB): a corrupt count must be an error, not an
/// allocation the 32 KiB heap cannot hold.
#[cfg(feature = "wincode")]
pub const WINCODE_BORSH: wincode::config::Configuration<
    true,
    4096,
    wincode::len::FixIntLen<u32>,
    wincode::int_encoding::LittleEndian,
    wincode::int_encoding::FixInt,
    u8,
> = wincode::config::Configuration::default()
    .with_length_encoding::<wincode::len::FixIntLen<u32>>()
    .with_tag_encoding::<u8>()
    .with_preallocation_size_limit::<4096>();
