//! The metadata family's record as a star_frame instruction's argument,
//! as the Anchor programs' `args_and_events` take it: `set_record` decodes
//! the whole record (borsh, star_frame's instruction arguments) and stores
//! its `seller_fee_basis_points` at the start of account [0], a `Mut`
//! account of any owner. So its cost is the decode's, beside Anchor 1.x's
//! and Anchor 2's `set_record`. The contract: benches/src/frameworks/
//! star_frame/args.rs, docs/frameworks.md.

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use star_frame::prelude::*;

// The harness loads it at Program::id_for("star_frame/metadata/args").
#[derive(StarFrameProgram)]
#[program(
    instruction_set = ArgsInstructionSet,
    id = "Cckr3mEeZ5JARGXrDJa9Fk6vGnaLSfkZbkycdmusyYPt"
)]
pub struct ArgsProgram;

#[derive(InstructionSet)]
pub enum ArgsInstructionSet {
    SetRecord(SetRecord),
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub enum Key {
    Uninitialized,
    EditionV1,
    MasterEditionV1,
    ReservationListV1,
    MetadataV1,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub struct Creator {
    pub address: Pubkey,
    pub verified: bool,
    pub share: u8,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub enum TokenStandard {
    NonFungible,
    FungibleAsset,
    Fungible,
    NonFungibleEdition,
    ProgrammableNonFungible,
    ProgrammableNonFungibleEdition,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub struct Collection {
    pub verified: bool,
    pub key: Pubkey,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub enum UseMethod {
    Burn,
    Multiple,
    Single,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub struct Uses {
    pub use_method: UseMethod,
    pub remaining: u64,
    pub total: u64,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub enum CollectionDetails {
    V1 { size: u64 },
    V2 { padding: [u8; 8] },
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub enum ProgrammableConfig {
    V1 { rule_set: Option<Pubkey> },
}

/// The family's record, in its borsh encoding.
#[derive(BorshSerialize, BorshDeserialize, Debug, Clone)]
pub struct Metadata {
    pub key: Key,
    pub update_authority: Pubkey,
    pub mint: Pubkey,
    pub name: String,
    pub symbol: String,
    pub uri: String,
    pub seller_fee_basis_points: u16,
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

#[derive(BorshSerialize, BorshDeserialize, Debug, Clone, InstructionArgs)]
pub struct SetRecord {
    #[ix_args(&run)]
    pub record: Metadata,
}

#[derive(AccountSet, Debug)]
pub struct StoreAccounts {
    pub out: Mut<AccountInfo>,
}

/// Store the record's royalty at the start of account [0]; a shorter
/// account is `AccountDataTooSmall`, with nothing written.
#[star_frame_instruction]
fn SetRecord(accounts: &mut StoreAccounts, record: &Metadata) -> Result<()> {
    let mut data = accounts.out.account_data_mut()?;
    let field = record.seller_fee_basis_points.to_le_bytes();
    data.get_mut(..field.len())
        .ok_or(ProgramError::AccountDataTooSmall)?
        .copy_from_slice(&field);
    Ok(())
}
