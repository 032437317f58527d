//! The logical record of the metadata family (docs/metadata.md):
//! the NFT metadata account's fields, with strings, options, enums, a short
//! list of structs, and fixed fields after the variable ones; and the
//! crates' derives on it.

use alloc::{string::String, vec::Vec};

/// The most bytes each string may hold, and the most creators.
pub const MAX_NAME: usize = 32;
pub const MAX_SYMBOL: usize = 10;
pub const MAX_URI: usize = 200;
pub const MAX_CREATORS: usize = 5;

/// Every type of the record gets the same derives: one list, here.
macro_rules! record_types {
    // The nested types also derive zeropod's `ZeroPod` (the record itself
    // cannot: its fixed fields follow variable ones; see `FixedFirst`).
    (zeropod; $($item:item)*) => {
        record_types! { @with cfg_attr(feature = "zeropod", derive(zeropod::ZeroPod)); $($item)* }
    };
    (@with $extra:meta; $($item:item)*) => {$(
        #[derive(Clone, Debug, PartialEq, Eq)]
        #[cfg_attr(
            feature = "borsh",
            derive(borsh::BorshSerialize, borsh::BorshDeserialize)
        )]
        #[cfg_attr(feature = "bincode", derive(bincode::Encode, bincode::Decode))]
        #[cfg_attr(feature = "wincode", derive(wincode::SchemaWrite, wincode::SchemaRead))]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(
            feature = "rkyv",
            derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)
        )]
        #[$extra]
        $item
    )*};
    ($($item:item)*) => {
        record_types! { @with derive(); $($item)* }
    };
}

record_types! {
    zeropod;
    /// The account kind; a stored record is `MetadataV1`.
    pub enum Key {
        Uninitialized,
        EditionV1,
        MasterEditionV1,
        ReservationListV1,
        MetadataV1,
    }

    pub struct Creator {
        pub address: [u8; 32],
        pub verified: bool,
        pub share: u8,
    }

    pub enum TokenStandard {
        NonFungible,
        FungibleAsset,
        Fungible,
        NonFungibleEdition,
        ProgrammableNonFungible,
        ProgrammableNonFungibleEdition,
    }

    pub struct Collection {
        pub verified: bool,
        pub key: [u8; 32],
    }

    pub enum UseMethod {
        Burn,
        Multiple,
        Single,
    }

    pub struct Uses {
        pub use_method: UseMethod,
        pub remaining: u64,
        pub total: u64,
    }
}

record_types! {
    pub struct Metadata {
        pub key: Key,
        pub update_authority: [u8; 32],
        pub mint: [u8; 32],
        /// UTF-8, at most [`MAX_NAME`] bytes.
        pub name: String,
        /// UTF-8, at most [`MAX_SYMBOL`] bytes.
        pub symbol: String,
        /// UTF-8, at most [`MAX_URI`] bytes.
        pub uri: String,
        /// A fixed field after three strings.
        pub seller_fee_basis_points: u16,
        /// At most [`MAX_CREATORS`].
        pub creators: Option<Vec<Creator>>,
        pub primary_sale_happened: bool,
        pub is_mutable: bool,
        pub edition_nonce: Option<u8>,
        pub token_standard: Option<TokenStandard>,
        pub collection: Option<Collection>,
        pub uses: Option<Uses>,
        pub collection_details: Option<CollectionDetails>,
        pub programmable_config: Option<ProgrammableConfig>,
    }
}

// Enums with named fields take their derives here, not through
// `record_types!`: bincode's derive loses their field names to the macro's
// hygiene.

/// An enum with data.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "borsh",
    derive(borsh::BorshSerialize, borsh::BorshDeserialize)
)]
#[cfg_attr(feature = "bincode", derive(bincode::Encode, bincode::Decode))]
#[cfg_attr(feature = "wincode", derive(wincode::SchemaWrite, wincode::SchemaRead))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "rkyv",
    derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)
)]
#[cfg_attr(feature = "zeropod", derive(zeropod::ZeroPod))]
pub enum CollectionDetails {
    V1 { size: u64 },
    V2 { padding: [u8; 8] },
}

/// An enum with data, an `Option` inside.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "borsh",
    derive(borsh::BorshSerialize, borsh::BorshDeserialize)
)]
#[cfg_attr(feature = "bincode", derive(bincode::Encode, bincode::Decode))]
#[cfg_attr(feature = "wincode", derive(wincode::SchemaWrite, wincode::SchemaRead))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "rkyv",
    derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)
)]
#[cfg_attr(feature = "zeropod", derive(zeropod::ZeroPod))]
pub enum ProgrammableConfig {
    V1 { rule_set: Option<[u8; 32]> },
}

impl Metadata {
    /// The spec's validity beyond what a type says: `key` is `MetadataV1`,
    /// every string within its bound, at most five creators. (UTF-8, bools
    /// and tags are the types' own.)
    pub fn is_valid(&self) -> bool {
        self.key == Key::MetadataV1
            && self.name.len() <= MAX_NAME
            && self.symbol.len() <= MAX_SYMBOL
            && self.uri.len() <= MAX_URI
            && self
                .creators
                .as_ref()
                .is_none_or(|c| c.len() <= MAX_CREATORS)
    }

    /// The record every format's account is sized for: every string at its
    /// bound, five creators, every option `Some`, the largest variants and
    /// the largest integers (what varint formats encode longest).
    pub fn largest() -> Self {
        let at_bound = |len: usize| "\u{7f}".repeat(len);
        Self {
            key: Key::MetadataV1,
            update_authority: [0xff; 32],
            mint: [0xff; 32],
            name: at_bound(MAX_NAME),
            symbol: at_bound(MAX_SYMBOL),
            uri: at_bound(MAX_URI),
            seller_fee_basis_points: u16::MAX,
            creators: Some(
                (0..MAX_CREATORS)
                    .map(|_| Creator {
                        address: [0xff; 32],
                        verified: true,
                        share: u8::MAX,
                    })
                    .collect(),
            ),
            primary_sale_happened: true,
            is_mutable: true,
            edition_nonce: Some(u8::MAX),
            token_standard: Some(TokenStandard::ProgrammableNonFungibleEdition),
            collection: Some(Collection {
                verified: true,
                key: [0xff; 32],
            }),
            uses: Some(Uses {
                use_method: UseMethod::Single,
                remaining: u64::MAX,
                total: u64::MAX,
            }),
            collection_details: Some(CollectionDetails::V1 { size: u64::MAX }),
            programmable_config: Some(ProgrammableConfig::V1 {
                rule_set: Some([0xff; 32]),
            }),
        }
    }
}
