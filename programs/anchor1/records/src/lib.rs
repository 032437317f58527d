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

/// The length of `value`'s borsh encoding, for a write that must know
/// whether the record still fits its account before it writes.
///
/// anchor-lang re-exports borsh 1.x from 1.0 on, which has
/// `borsh::object_length`; 0.29 to 0.32 re-export borsh 0.10, which has
/// none. There (the `borsh-0-10` feature, which `make anchor-versions`
/// sets for those releases) the encoding is written to a writer that only
/// counts: the one place the programs' sources differ between releases.
pub fn encoded_len<T: AnchorSerialize>(value: &T) -> std::io::Result<usize> {
    #[cfg(not(feature = "borsh-0-10"))]
    {
        borsh::object_length(value)
    }
    #[cfg(feature = "borsh-0-10")]
    {
        struct Counter(usize);
        impl std::io::Write for Counter {
            fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
                self.0 += bytes.len();
                Ok(bytes.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let mut counter = Counter(0);
        value.serialize(&mut counter)?;
        Ok(counter.0)
    }
}
