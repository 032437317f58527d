//! The token record as a star_frame account: a `#[zero_copy(pod)]` struct
//! that is a `ProgramAccount` (behind star_frame's 8-byte discriminant,
//! `sha256("account:TokenRecord")[..8]`), held by star_frame's
//! `Account<T>`, which checks the discriminant and the owner program when
//! the account set is validated, and borrowed in place (`data()` /
//! `data_mut()`). Instructions are an `InstructionSet` with star_frame's
//! default 8-byte discriminants (`sha256("global:<name>")[..8]`), their
//! arguments (none) borsh. The owner check is the handler's `ensure!`, as
//! star_frame's own counter example writes it. The contract is the token
//! family's as star_frame states it: benches/src/frameworks/star_frame.rs,
//! docs/frameworks.md.

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use star_frame::prelude::*;

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

// The harness loads it at Program::id_for("star_frame/token/account").
#[derive(StarFrameProgram)]
#[program(
    instruction_set = TokenInstructionSet,
    id = "D8AkzCvTQndw4VnfSscAj2pkyAg1Pe82Dq2TdYmES2A7"
)]
pub struct TokenProgram;

#[derive(InstructionSet)]
pub enum TokenInstructionSet {
    Full(Full),
    ReadOwner(ReadOwner),
    UpdateAmount(UpdateAmount),
}

/// The family's 160-byte record.
#[zero_copy(pod)]
#[derive(ProgramAccount, Default, Debug, Eq, PartialEq)]
pub struct TokenRecord {
    pub mint: Pubkey,
    pub owner: Pubkey,
    pub amount: u64,
    pub delegate: Pubkey,
    pub state: u8,
    pub padding: [u8; 7],
    pub native_amount: u64,
    pub delegated_amount: u64,
    pub close_authority: Pubkey,
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Copy, Clone, InstructionArgs)]
pub struct Full;

#[derive(BorshSerialize, BorshDeserialize, Debug, Copy, Clone, InstructionArgs)]
pub struct ReadOwner;

#[derive(BorshSerialize, BorshDeserialize, Debug, Copy, Clone, InstructionArgs)]
pub struct UpdateAmount;

#[derive(AccountSet, Debug)]
pub struct WriteAccounts {
    pub record: Mut<Account<TokenRecord>>,
    pub owner: AccountInfo,
}

#[derive(AccountSet, Debug)]
pub struct ReadAccounts {
    pub record: Account<TokenRecord>,
    pub owner: AccountInfo,
}

/// Check the owner, then set `state` and `amount` in place.
#[star_frame_instruction]
fn Full(accounts: &mut WriteAccounts) -> Result<()> {
    ensure!(
        *accounts.owner.pubkey() == accounts.record.data()?.owner,
        ProgramError::IncorrectAuthority
    );
    let mut record = accounts.record.data_mut()?;
    record.state = NEW_STATE;
    record.amount = NEW_AMOUNT;
    Ok(())
}

/// Check the owner; write nothing.
#[star_frame_instruction]
fn ReadOwner(accounts: &mut ReadAccounts) -> Result<()> {
    ensure!(
        *accounts.owner.pubkey() == accounts.record.data()?.owner,
        ProgramError::IncorrectAuthority
    );
    Ok(())
}

/// Set `state` and `amount`, keeping every other field.
#[star_frame_instruction]
fn UpdateAmount(accounts: &mut WriteAccounts) -> Result<()> {
    let mut record = accounts.record.data_mut()?;
    record.state = NEW_STATE;
    record.amount = NEW_AMOUNT;
    Ok(())
}
