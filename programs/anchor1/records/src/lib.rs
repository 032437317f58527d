//! What the Anchor 1.x programs share: the metadata record's nested types
//! (the record itself is declared in each program, under the attribute
//! that program measures), with Anchor's borsh derives; and the store the
//! arguments-and-events handlers use their argument with.

use anchor_lang::prelude::*;

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub enum Key {
    Uninitialized,
    EditionV1,
    MasterEditionV1,
    ReservationListV1,
    MetadataV1,
}

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub struct Creator {
    pub address: Pubkey,
    pub verified: bool,
    pub share: u8,
}

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub enum TokenStandard {
    NonFungible,
    FungibleAsset,
    Fungible,
    NonFungibleEdition,
    ProgrammableNonFungible,
    ProgrammableNonFungibleEdition,
}

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub struct Collection {
    pub verified: bool,
    pub key: Pubkey,
}

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub enum UseMethod {
    Burn,
    Multiple,
    Single,
}

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub struct Uses {
    pub use_method: UseMethod,
    pub remaining: u64,
    pub total: u64,
}

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub enum CollectionDetails {
    V1 { size: u64 },
    V2 { padding: [u8; 8] },
}

#[derive(AnchorSerialize, AnchorDeserialize, Clone)]
pub enum ProgrammableConfig {
    V1 { rule_set: Option<Pubkey> },
}

/// Writes `field` at the start of `out`'s data, as a handler uses the
/// argument it decoded; a shorter account is `AccountDataTooSmall`, with
/// nothing written.
pub fn store(out: &AccountInfo, field: &[u8]) -> Result<()> {
    let mut data = out.try_borrow_mut_data()?;
    data.get_mut(..field.len())
        .ok_or(ProgramError::AccountDataTooSmall)?
        .copy_from_slice(field);
    Ok(())
}
