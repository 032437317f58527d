//! The record as light-zero-copy's derives can express it: borsh's bytes of
//! [`Metadata`](super::Metadata), read through two derived views.
//!
//! What the derives cannot express, and what stands in for it:
//! - `String`: not a supported type; each string is a `Vec<u8>` (borsh's
//!   bytes: a `u32` length, then the bytes), its UTF-8 unchecked.
//! - enums: `ZeroCopyMut` derives none, and `ZeroCopy` only those whose
//!   variants are units or hold one unnamed field. So the record is split
//!   where its first enum after the key begins: [`LightHead`] (`key` as
//!   its `u8` tag, through `is_mutable`) derives both views, [`LightTail`]
//!   (the options from `edition_nonce` on) only the read view, and
//!   `CollectionDetails`' and `ProgrammableConfig`'s named fields become
//!   one unnamed field each (the same bytes).
//! - `bool`: read as its `u8`, any value accepted.

use alloc::vec::Vec;

use light_zero_copy::{ZeroCopy, ZeroCopyMut};

/// From the key through `is_mutable`: every field before the first enum.
#[derive(ZeroCopy, ZeroCopyMut)]
#[repr(C)]
pub struct LightHead {
    /// `Key`'s tag: 4 is `MetadataV1`.
    pub key: u8,
    pub update_authority: [u8; 32],
    pub mint: [u8; 32],
    pub name: Vec<u8>,
    pub symbol: Vec<u8>,
    pub uri: Vec<u8>,
    pub seller_fee_basis_points: u16,
    pub creators: Option<Vec<LightCreator>>,
    pub primary_sale_happened: bool,
    pub is_mutable: bool,
}

#[derive(ZeroCopy, ZeroCopyMut)]
#[repr(C)]
pub struct LightCreator {
    pub address: [u8; 32],
    pub verified: bool,
    pub share: u8,
}

/// The options after `is_mutable`, read only.
#[derive(ZeroCopy)]
#[repr(C)]
pub struct LightTail {
    pub edition_nonce: Option<u8>,
    pub token_standard: Option<LightTokenStandard>,
    pub collection: Option<LightCollection>,
    pub uses: Option<LightUses>,
    pub collection_details: Option<LightCollectionDetails>,
    pub programmable_config: Option<LightProgrammableConfig>,
}

#[derive(ZeroCopy)]
#[repr(C)]
pub enum LightTokenStandard {
    NonFungible,
    FungibleAsset,
    Fungible,
    NonFungibleEdition,
    ProgrammableNonFungible,
    ProgrammableNonFungibleEdition,
}

#[derive(ZeroCopy)]
#[repr(C)]
pub struct LightCollection {
    pub verified: bool,
    pub key: [u8; 32],
}

#[derive(ZeroCopy)]
#[repr(C)]
pub struct LightUses {
    pub use_method: LightUseMethod,
    pub remaining: u64,
    pub total: u64,
}

#[derive(ZeroCopy)]
#[repr(C)]
pub enum LightUseMethod {
    Burn,
    Multiple,
    Single,
}

// Each derive on an enum with data declares a `<Variant>Type` alias beside
// it, so the two enums with a `V1` live in modules of their own.
pub use config::LightProgrammableConfig;
pub use details::LightCollectionDetails;

mod details {
    use light_zero_copy::ZeroCopy;

    /// `V1 { size }` and `V2 { padding }`, their fields unnamed.
    #[derive(ZeroCopy)]
    #[repr(C)]
    pub enum LightCollectionDetails {
        V1(u64),
        V2([u8; 8]),
    }
}

mod config {
    use light_zero_copy::ZeroCopy;

    /// `V1 { rule_set }`, its field unnamed.
    #[derive(ZeroCopy)]
    #[repr(C)]
    pub enum LightProgrammableConfig {
        V1(Option<[u8; 32]>),
    }
}
