//! The record with its fixed-size fields first. zeropod's derive requires
//! every fixed-size field before the first variable one (it refuses the
//! spec's order: `seller_fee_basis_points` after three strings), so the
//! zeropod program stores this order: borsh's encoding of the same logical
//! record, not the bytes of [`Metadata`]'s order.

use alloc::{string::String, vec::Vec};

use super::{
    Collection, CollectionDetails, Creator, Key, Metadata, ProgrammableConfig, TokenStandard, Uses,
};
#[cfg(feature = "zeropod")]
use super::{MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI};

#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "borsh",
    derive(borsh::BorshSerialize, borsh::BorshDeserialize)
)]
#[cfg_attr(feature = "zeropod", derive(zeropod::ZeroPod))]
pub struct FixedFirst {
    pub key: Key,
    pub update_authority: [u8; 32],
    pub mint: [u8; 32],
    pub seller_fee_basis_points: u16,
    pub primary_sale_happened: bool,
    pub is_mutable: bool,
    #[cfg_attr(feature = "zeropod", max_len(MAX_NAME))]
    pub name: String,
    #[cfg_attr(feature = "zeropod", max_len(MAX_SYMBOL))]
    pub symbol: String,
    #[cfg_attr(feature = "zeropod", max_len(MAX_URI))]
    pub uri: String,
    #[cfg_attr(feature = "zeropod", max_len(MAX_CREATORS))]
    pub creators: Option<Vec<Creator>>,
    pub edition_nonce: Option<u8>,
    pub token_standard: Option<TokenStandard>,
    pub collection: Option<Collection>,
    pub uses: Option<Uses>,
    pub collection_details: Option<CollectionDetails>,
    pub programmable_config: Option<ProgrammableConfig>,
}

impl From<Metadata> for FixedFirst {
    fn from(m: Metadata) -> Self {
        Self {
            key: m.key,
            update_authority: m.update_authority,
            mint: m.mint,
            seller_fee_basis_points: m.seller_fee_basis_points,
            primary_sale_happened: m.primary_sale_happened,
            is_mutable: m.is_mutable,
            name: m.name,
            symbol: m.symbol,
            uri: m.uri,
            creators: m.creators,
            edition_nonce: m.edition_nonce,
            token_standard: m.token_standard,
            collection: m.collection,
            uses: m.uses,
            collection_details: m.collection_details,
            programmable_config: m.programmable_config,
        }
    }
}

impl From<FixedFirst> for Metadata {
    fn from(m: FixedFirst) -> Self {
        Self {
            key: m.key,
            update_authority: m.update_authority,
            mint: m.mint,
            name: m.name,
            symbol: m.symbol,
            uri: m.uri,
            seller_fee_basis_points: m.seller_fee_basis_points,
            creators: m.creators,
            primary_sale_happened: m.primary_sale_happened,
            is_mutable: m.is_mutable,
            edition_nonce: m.edition_nonce,
            token_standard: m.token_standard,
            collection: m.collection,
            uses: m.uses,
            collection_details: m.collection_details,
            programmable_config: m.programmable_config,
        }
    }
}
