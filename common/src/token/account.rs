use core::mem::{offset_of, size_of};

/// The state `update_amount` and `full` write.
pub const NEW_STATE: u8 = 255;
/// The amount `update_amount` and `full` write.
pub const NEW_AMOUNT: u64 = 1_000_000_000;

/// A token-account-like record, 160 bytes with no implicit padding, so that
/// its `#[repr(C)]` bytes are also its little-endian fixed-width encoding in
/// every serializer benchmarked here.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "bytemuck", derive(bytemuck::Pod, bytemuck::Zeroable))]
#[cfg_attr(
    feature = "zerocopy",
    derive(
        zerocopy::FromBytes,
        zerocopy::IntoBytes,
        zerocopy::KnownLayout,
        zerocopy::Immutable
    )
)]
#[cfg_attr(
    feature = "borsh",
    derive(borsh::BorshSerialize, borsh::BorshDeserialize)
)]
#[cfg_attr(feature = "bincode", derive(bincode::Encode, bincode::Decode))]
#[cfg_attr(feature = "wincode", derive(wincode::SchemaWrite, wincode::SchemaRead))]
#[cfg_attr(feature = "wincode", wincode(assert_zero_copy))]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "rkyv",
    derive(rkyv::Archive, rkyv::Serialize, rkyv::Deserialize)
)]
#[cfg_attr(
    feature = "light-zero-copy",
    derive(light_zero_copy::ZeroCopy, light_zero_copy::ZeroCopyMut)
)]
pub struct Account {
    pub mint: [u8; 32],
    pub owner: [u8; 32],
    pub amount: u64,
    pub delegate: [u8; 32],
    pub state: u8,
    pub _padding: [u8; 7],
    pub native_amount: u64,
    pub delegated_amount: u64,
    pub close_authority: [u8; 32],
}

impl Account {
    /// Size of the raw layout, and of every fixed-width encoding of it.
    pub const LEN: usize = 160;
    /// The bytes of every field but the three `u64`s (`mint`, `owner`,
    /// `delegate`, `state`, `_padding`, `close_authority`): what a varint
    /// encoding adds its three integers to.
    pub const BYTE_FIELDS_LEN: usize = 136;
    /// How many `u64` fields there are (`amount`, `native_amount`,
    /// `delegated_amount`).
    pub const U64_FIELDS: usize = 3;
}

// The layout is the contract: every serializer must produce these bytes.
const _: () = {
    assert!(size_of::<Account>() == Account::LEN);
    assert!(Account::BYTE_FIELDS_LEN + Account::U64_FIELDS * 8 == Account::LEN);
    assert!(offset_of!(Account, mint) == 0);
    assert!(offset_of!(Account, owner) == 32);
    assert!(offset_of!(Account, amount) == 64);
    assert!(offset_of!(Account, delegate) == 72);
    assert!(offset_of!(Account, state) == 104);
    assert!(offset_of!(Account, _padding) == 105);
    assert!(offset_of!(Account, native_amount) == 112);
    assert!(offset_of!(Account, delegated_amount) == 120);
    assert!(offset_of!(Account, close_authority) == 128);
};
