use core::mem::{offset_of, size_of};

use pinocchio::{Address, ProgramResult, error::ProgramError};

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
    /// Size of the encoded account, in every serializer.
    pub const LEN: usize = 160;

    /// The owner check of `full` and `read_owner`: the stored owner against
    /// the key of account [1].
    #[inline(always)]
    pub fn check_owner(&self, key: &Address) -> ProgramResult {
        if &self.owner == key.as_array() {
            Ok(())
        } else {
            Err(ProgramError::IncorrectAuthority)
        }
    }

    /// The change `full` and `update_amount` make.
    #[inline(always)]
    pub fn update(&mut self) {
        self.state = NEW_STATE;
        self.amount = NEW_AMOUNT;
    }
}

// The layout is the contract: every serializer must produce these bytes.
const _: () = {
    assert!(size_of::<Account>() == Account::LEN);
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
