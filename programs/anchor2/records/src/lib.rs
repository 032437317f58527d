//! What the Anchor 2 programs of a family share: the metadata record's
//! nested types (the record itself is declared in each program, under the
//! attribute that program measures: `#[account(borsh)]`, `#[event]`), each
//! with Anchor's codec and, for Anchor 1.x's `emit!`, borsh's; and the
//! store the arguments-and-events handlers use their argument with.
#![no_std]

use anchor_lang::prelude::*;
use borsh::BorshSerialize;

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub enum Key {
    Uninitialized,
    EditionV1,
    MasterEditionV1,
    ReservationListV1,
    MetadataV1,
}

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub struct Creator {
    pub address: Address,
    pub verified: bool,
    pub share: u8,
}

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub enum TokenStandard {
    NonFungible,
    FungibleAsset,
    Fungible,
    NonFungibleEdition,
    ProgrammableNonFungible,
    ProgrammableNonFungibleEdition,
}

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub struct Collection {
    pub verified: bool,
    pub key: Address,
}

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub enum UseMethod {
    Burn,
    Multiple,
    Single,
}

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub struct Uses {
    pub use_method: UseMethod,
    pub remaining: u64,
    pub total: u64,
}

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub enum CollectionDetails {
    V1 { size: u64 },
    V2 { padding: [u8; 8] },
}

#[derive(AnchorSerialize, AnchorDeserialize, BorshSerialize)]
pub enum ProgrammableConfig {
    V1 { rule_set: Option<Address> },
}

/// Writes `field` at the start of `out`'s data, as a handler uses the
/// argument it decoded; a shorter account is `AccountDataTooSmall`, with
/// nothing written.
pub fn store(out: &UncheckedAccount, field: &[u8]) -> Result<()> {
    let mut view = *out.account();
    let mut data = view.try_borrow_mut()?;
    data.get_mut(..field.len())
        .ok_or(ProgramError::AccountDataTooSmall)?
        .copy_from_slice(field);
    Ok(())
}
