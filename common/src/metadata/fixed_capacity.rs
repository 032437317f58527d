//! The fixed-capacity redesign: what a program written for zero-copy
//! stores instead of the record (Anchor's `zero_copy` accounts). Each
//! string is a length and a byte array at its bound, each option a flag
//! and a value, the creators a count and five slots, enums a `u8`, and
//! every integer a little-endian byte array, so the struct has alignment 1
//! and no padding: one size, and nothing ever moves.
//!
//! Bytes the record does not use (past a string's length, past the
//! creators' count, a `None`'s value) are zero in an account the host
//! writes; the programs neither read nor check them.

#[cfg(feature = "host")]
use alloc::{string::String, vec::Vec};

#[cfg(feature = "host")]
use super::{
    Collection, CollectionDetails, Creator, Key, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI,
    Metadata, ProgrammableConfig, TokenStandard, UseMethod, Uses,
};

/// A creator's slot.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct FixedCreator {
    pub address: [u8; 32],
    pub verified: u8,
    pub share: u8,
}

/// The record at fixed capacity: 586 bytes, whatever it holds.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
pub struct FixedCapacity {
    /// `Key`'s variant: 4 is `MetadataV1`.
    pub key: u8,
    pub update_authority: [u8; 32],
    pub mint: [u8; 32],
    pub name_len: u8,
    pub name: [u8; 32],
    pub symbol_len: u8,
    pub symbol: [u8; 10],
    pub uri_len: u8,
    pub uri: [u8; 200],
    pub seller_fee_basis_points: [u8; 2],
    pub creator_count: u8,
    pub creators: [FixedCreator; 5],
    pub primary_sale_happened: u8,
    pub is_mutable: u8,
    pub has_edition_nonce: u8,
    pub edition_nonce: u8,
    pub has_token_standard: u8,
    pub token_standard: u8,
    pub has_collection: u8,
    pub collection_verified: u8,
    pub collection_key: [u8; 32],
    pub has_uses: u8,
    pub use_method: u8,
    pub uses_remaining: [u8; 8],
    pub uses_total: [u8; 8],
    pub has_collection_details: u8,
    /// 0 is `V1 { size }`, 1 is `V2 { padding }`; the value follows.
    pub collection_details: u8,
    pub collection_details_value: [u8; 8],
    pub has_programmable_config: u8,
    /// `ProgrammableConfig`'s variant: only `V1` (0).
    pub programmable_config: u8,
    pub has_rule_set: u8,
    pub rule_set: [u8; 32],
}

/// The account's length: the struct's, whatever it holds.
pub const FIXED_CAPACITY_LEN: usize = core::mem::size_of::<FixedCapacity>();

#[cfg(feature = "host")]
impl FixedCapacity {
    /// The record in its slots, unused bytes zero. A string or list past
    /// its capacity keeps its true length (up to 255) over the bytes that
    /// fit: the accounts the tests use for "a length past its bound".
    pub fn new(m: &Metadata) -> Self {
        fn text<const N: usize>(s: &str) -> (u8, [u8; N]) {
            let mut bytes = [0; N];
            let fits = s.len().min(N);
            bytes[..fits].copy_from_slice(&s.as_bytes()[..fits]);
            (s.len().min(255) as u8, bytes)
        }
        let (name_len, name) = text(&m.name);
        let (symbol_len, symbol) = text(&m.symbol);
        let (uri_len, uri) = text(&m.uri);
        let all = m.creators.as_deref().unwrap_or_default();
        let mut creators = [FixedCreator::default(); 5];
        for (slot, c) in creators.iter_mut().zip(all) {
            *slot = FixedCreator {
                address: c.address,
                verified: c.verified as u8,
                share: c.share,
            };
        }
        let collection = m.collection.as_ref();
        let uses = m.uses.as_ref();
        let (details, details_value) = match &m.collection_details {
            Some(CollectionDetails::V1 { size }) => (0, size.to_le_bytes()),
            Some(CollectionDetails::V2 { padding }) => (1, *padding),
            None => (0, [0; 8]),
        };
        let rule_set = match &m.programmable_config {
            Some(ProgrammableConfig::V1 { rule_set }) => *rule_set,
            None => None,
        };
        Self {
            key: m.key.clone() as u8,
            update_authority: m.update_authority,
            mint: m.mint,
            name_len,
            name,
            symbol_len,
            symbol,
            uri_len,
            uri,
            seller_fee_basis_points: m.seller_fee_basis_points.to_le_bytes(),
            creator_count: all.len().min(255) as u8,
            creators,
            primary_sale_happened: m.primary_sale_happened as u8,
            is_mutable: m.is_mutable as u8,
            has_edition_nonce: m.edition_nonce.is_some() as u8,
            edition_nonce: m.edition_nonce.unwrap_or(0),
            has_token_standard: m.token_standard.is_some() as u8,
            token_standard: m.token_standard.clone().map_or(0, |t| t as u8),
            has_collection: collection.is_some() as u8,
            collection_verified: collection.is_some_and(|c| c.verified) as u8,
            collection_key: collection.map_or([0; 32], |c| c.key),
            has_uses: uses.is_some() as u8,
            use_method: uses.map_or(0, |u| u.use_method.clone() as u8),
            uses_remaining: uses.map_or(0, |u| u.remaining).to_le_bytes(),
            uses_total: uses.map_or(0, |u| u.total).to_le_bytes(),
            has_collection_details: m.collection_details.is_some() as u8,
            collection_details: details,
            collection_details_value: details_value,
            has_programmable_config: m.programmable_config.is_some() as u8,
            programmable_config: 0,
            has_rule_set: rule_set.is_some() as u8,
            rule_set: rule_set.unwrap_or([0; 32]),
        }
    }

    /// The logical record, or `None` where a length passes its capacity, a
    /// string is not UTF-8, or a flag or tag is out of range.
    pub fn to_metadata(&self) -> Option<Metadata> {
        fn flag(byte: u8) -> Option<bool> {
            (byte < 2).then_some(byte == 1)
        }
        fn text(len: u8, bytes: &[u8], max: usize) -> Option<String> {
            let len = usize::from(len);
            (len <= max).then_some(())?;
            String::from_utf8(bytes[..len].to_vec()).ok()
        }
        fn some<T>(flag_byte: u8, value: impl FnOnce() -> Option<T>) -> Option<Option<T>> {
            if flag(flag_byte)? {
                value().map(Some)
            } else {
                Some(None)
            }
        }
        let count = usize::from(self.creator_count);
        let creators = (count <= MAX_CREATORS).then_some(&self.creators[..count.min(5)])?;
        let creators = creators
            .iter()
            .map(|c| {
                Some(Creator {
                    address: c.address,
                    verified: flag(c.verified)?,
                    share: c.share,
                })
            })
            .collect::<Option<Vec<_>>>()?;
        let key = [
            Key::Uninitialized,
            Key::EditionV1,
            Key::MasterEditionV1,
            Key::ReservationListV1,
            Key::MetadataV1,
        ]
        .into_iter()
        .nth(self.key.into())?;
        let token_standards = [
            TokenStandard::NonFungible,
            TokenStandard::FungibleAsset,
            TokenStandard::Fungible,
            TokenStandard::NonFungibleEdition,
            TokenStandard::ProgrammableNonFungible,
            TokenStandard::ProgrammableNonFungibleEdition,
        ];
        let use_methods = [UseMethod::Burn, UseMethod::Multiple, UseMethod::Single];
        Some(Metadata {
            key,
            update_authority: self.update_authority,
            mint: self.mint,
            name: text(self.name_len, &self.name, MAX_NAME)?,
            symbol: text(self.symbol_len, &self.symbol, MAX_SYMBOL)?,
            uri: text(self.uri_len, &self.uri, MAX_URI)?,
            seller_fee_basis_points: u16::from_le_bytes(self.seller_fee_basis_points),
            // A count of 0 is `None`: the redesign does not tell `None`
            // from `Some([])`, and no instance holds `Some([])`.
            creators: (count > 0).then_some(creators),
            primary_sale_happened: flag(self.primary_sale_happened)?,
            is_mutable: flag(self.is_mutable)?,
            edition_nonce: some(self.has_edition_nonce, || Some(self.edition_nonce))?,
            token_standard: some(self.has_token_standard, || {
                token_standards.into_iter().nth(self.token_standard.into())
            })?,
            collection: some(self.has_collection, || {
                Some(Collection {
                    verified: flag(self.collection_verified)?,
                    key: self.collection_key,
                })
            })?,
            uses: some(self.has_uses, || {
                Some(Uses {
                    use_method: use_methods.into_iter().nth(self.use_method.into())?,
                    remaining: u64::from_le_bytes(self.uses_remaining),
                    total: u64::from_le_bytes(self.uses_total),
                })
            })?,
            collection_details: some(self.has_collection_details, || {
                match self.collection_details {
                    0 => Some(CollectionDetails::V1 {
                        size: u64::from_le_bytes(self.collection_details_value),
                    }),
                    1 => Some(CollectionDetails::V2 {
                        padding: self.collection_details_value,
                    }),
                    _ => None,
                }
            })?,
            programmable_config: some(self.has_programmable_config, || {
                (self.programmable_config == 0).then_some(())?;
                Some(ProgrammableConfig::V1 {
                    rule_set: some(self.has_rule_set, || Some(self.rule_set))?,
                })
            })?,
        })
    }
}
