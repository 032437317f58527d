//! The token record as a Steel account: a bytemuck `Pod` struct linked to
//! its one-byte discriminator by `account!` (the byte, then seven zeros,
//! before the record), borrowed in place by `as_account` /
//! `as_account_mut`, which check the account's program owner, its exact
//! length and the discriminator. Instructions are `instruction!` records
//! behind a one-byte tag (`parse_instruction`), as Steel's own examples
//! lay a program out. The owner check is Steel's `assert` on the record.
//! The contract is the token family's as Steel states it:
//! benches/src/frameworks/steel.rs, docs/frameworks.md.

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use steel::*;

// The harness loads it at Program::id_for("steel/token/account").
declare_id!("5hjeqUjoE2aF8HoFSJP1WYyiPnGDnvZ4mJvfbs5D14na");

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

/// The program's account types, by discriminator.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Eq, PartialEq, IntoPrimitive, TryFromPrimitive)]
pub enum TokenAccount {
    TokenRecord = 1,
}

/// The family's 160-byte record; behind Steel's 8-byte discriminator its
/// `u64`s are 8-aligned, as bytemuck's cast wants them.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Pod, Zeroable)]
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

account!(TokenAccount, TokenRecord);

const _: () = assert!(core::mem::size_of::<TokenRecord>() == 160);

/// The family's op bytes.
#[repr(u8)]
#[derive(Clone, Copy, Debug, Eq, PartialEq, TryFromPrimitive)]
pub enum TokenInstruction {
    Full = 0,
    ReadOwner = 1,
    UpdateAmount = 2,
}

pub fn process_instruction(
    program_id: &Pubkey,
    accounts: &[AccountInfo],
    data: &[u8],
) -> ProgramResult {
    let (ix, _args) = parse_instruction::<TokenInstruction>(&ID, program_id, data)?;
    match ix {
        TokenInstruction::Full => process_full(accounts),
        TokenInstruction::ReadOwner => process_read_owner(accounts),
        TokenInstruction::UpdateAmount => process_update_amount(accounts),
    }
}

/// Check the owner, then set `state` and `amount` in place.
fn process_full(accounts: &[AccountInfo]) -> ProgramResult {
    let [record_info, owner_info, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let record = record_info
        .is_writable()?
        .as_account_mut::<TokenRecord>(&ID)?
        .assert_mut(|r| r.owner == *owner_info.key)?;
    record.state = NEW_STATE;
    record.amount = NEW_AMOUNT;
    Ok(())
}

/// Check the owner; write nothing.
fn process_read_owner(accounts: &[AccountInfo]) -> ProgramResult {
    let [record_info, owner_info, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    record_info
        .as_account::<TokenRecord>(&ID)?
        .assert(|r| r.owner == *owner_info.key)?;
    Ok(())
}

/// Set `state` and `amount`, keeping every other field.
fn process_update_amount(accounts: &[AccountInfo]) -> ProgramResult {
    let [record_info, _owner_info, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let record = record_info
        .is_writable()?
        .as_account_mut::<TokenRecord>(&ID)?;
    record.state = NEW_STATE;
    record.amount = NEW_AMOUNT;
    Ok(())
}

entrypoint!(process_instruction);
