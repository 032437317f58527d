//! The metadata record as a star_frame account with its own variable-length
//! story: an `#[unsized_type(program_account)]`, behind star_frame's 8-byte
//! discriminant (`sha256("account:Metadata")[..8]`). Its fixed-size fields
//! come first (each option a flag and a value); after `#[unsized_start]`,
//! the name, symbol and uri are `UnsizedString`s and the creators a
//! `List<Creator>` (each a `u32` count, then the bytes or items), so the
//! account is exactly as long as the record, and `set_uri` resizes it
//! (star_frame moves what follows the uri). Held by star_frame's
//! `Account<T>`, which checks the discriminant and the owner program when
//! the account set is validated; `data()` / `data_mut()` lay the record
//! over the bytes, checking each length against what is left.
//!
//! Instructions are an `InstructionSet` with star_frame's default 8-byte
//! discriminants, their arguments borsh (`read_royalty`'s `u16`,
//! `set_uri`'s `String`). The update authority is the handler's
//! `ensure!`, as star_frame's own examples check an authority. The
//! contract is the metadata family's as star_frame states it:
//! benches/src/frameworks/star_frame.rs, docs/frameworks.md.

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use star_frame::prelude::*;

/// `Key::MetadataV1`'s variant: the record's first byte.
const METADATA_V1: u8 = 4;
/// The most bytes a uri may hold (the family's `MAX_URI`).
const MAX_URI: usize = 200;

// The harness loads it at Program::id_for("star_frame/metadata/account").
#[derive(StarFrameProgram)]
#[program(
    instruction_set = MetadataInstructionSet,
    id = "6QZgCcCYY62nVMvV3wah2MZcvExGfFTsD8QRQZKg9hVn"
)]
pub struct MetadataProgram;

#[derive(InstructionSet)]
pub enum MetadataInstructionSet {
    ReadRoyalty(ReadRoyalty),
    SetUri(SetUri),
}

/// A creator.
#[zero_copy(pod)]
#[derive(Default, Debug, Eq, PartialEq)]
pub struct Creator {
    pub address: Pubkey,
    pub verified: u8,
    pub share: u8,
}

/// The family's record: its fixed-size fields, then its strings and
/// creators at their own lengths.
#[unsized_type(program_account)]
pub struct Metadata {
    pub key: u8,
    pub update_authority: Pubkey,
    pub mint: Pubkey,
    pub seller_fee_basis_points: u16,
    pub primary_sale_happened: u8,
    pub is_mutable: u8,
    pub has_edition_nonce: u8,
    pub edition_nonce: u8,
    pub has_token_standard: u8,
    pub token_standard: u8,
    pub has_collection: u8,
    pub collection_verified: u8,
    pub collection_key: Pubkey,
    pub has_uses: u8,
    pub use_method: u8,
    pub uses_remaining: u64,
    pub uses_total: u64,
    pub has_collection_details: u8,
    pub collection_details: u8,
    pub collection_details_value: u64,
    pub has_programmable_config: u8,
    pub programmable_config: u8,
    pub has_rule_set: u8,
    pub rule_set: Pubkey,
    pub has_creators: u8,
    #[unsized_start]
    pub name: UnsizedString,
    pub symbol: UnsizedString,
    pub uri: UnsizedString,
    pub creators: List<Creator>,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Copy, Clone, InstructionArgs)]
pub struct ReadRoyalty {
    #[ix_args(run)]
    pub bps: u16,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone, InstructionArgs)]
pub struct SetUri {
    #[ix_args(&run)]
    pub uri: String,
}

#[derive(AccountSet, Debug)]
pub struct ReadAccounts {
    pub record: Account<Metadata>,
    pub signer: AccountInfo,
}

#[derive(AccountSet, Debug)]
pub struct AuthorizedAccounts {
    pub record: Mut<Account<Metadata>>,
    pub update_authority: AccountInfo,
}

/// Succeed if the record's royalty is `bps`.
#[star_frame_instruction]
fn ReadRoyalty(accounts: &mut ReadAccounts, bps: u16) -> Result<()> {
    let record = accounts.record.data()?;
    ensure!(record.key == METADATA_V1, ProgramError::InvalidAccountData);
    let stored = record.seller_fee_basis_points;
    ensure!(stored == bps, ProgramError::InvalidArgument);
    Ok(())
}

/// Check the record's key and the update authority, then that the record
/// is mutable and the new uri within its bound (borsh has checked it is
/// UTF-8); set it, resizing the account.
#[star_frame_instruction]
fn SetUri(accounts: &mut AuthorizedAccounts, uri: &String) -> Result<()> {
    let mut record = accounts.record.data_mut()?;
    ensure!(
        record.key == METADATA_V1 && record.is_mutable <= 1,
        ProgramError::InvalidAccountData
    );
    ensure!(
        *accounts.update_authority.pubkey() == record.update_authority,
        ProgramError::IncorrectAuthority
    );
    ensure!(
        record.is_mutable == 1 && uri.len() <= MAX_URI,
        ProgramError::InvalidArgument
    );
    record.uri().set(uri)?;
    Ok(())
}
