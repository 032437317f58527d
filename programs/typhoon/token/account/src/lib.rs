//! The token record as typhoon's `Account<T>`: `#[derive(AccountState)]`
//! with bytemuck's `Pod` makes it a zero-copy account behind typhoon's
//! 8-byte discriminator, borrowed in place (`data()` / `mut_data()`). Its
//! integers are byte arrays, so the record is 1-aligned and casts from any
//! offset; with them it is the family's 160-byte layout. The owner check
//! is typhoon's `has_one` constraint; the writable flag is checked here
//! (`writable`). The contract is the token family's as typhoon states it:
//! benches/src/typhoon.rs, docs/frameworks.md.
#![no_std]

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use typhoon::prelude::*;

// The harness loads it at Program::id_for("typhoon/token/account").
program_id!("HBudqdAkhU9wcus23bNE87sfMcozEA1pMLugAzwnAQNe");

/// The state `full` and `update_amount` write (the family's `NEW_STATE`).
const NEW_STATE: u8 = 255;
/// The amount they write (the family's `NEW_AMOUNT`).
const NEW_AMOUNT: u64 = 1_000_000_000;

#[derive(AccountState, Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
#[repr(C)]
pub struct TokenRecord {
    pub mint: Address,
    pub owner: Address,
    pub amount: [u8; 8],
    pub delegate: Address,
    pub state: u8,
    pub padding: [u8; 7],
    pub native_amount: [u8; 8],
    pub delegated_amount: [u8; 8],
    pub close_authority: Address,
}

const _: () = assert!(core::mem::size_of::<TokenRecord>() == 160);

#[context]
pub struct WriteOwned {
    #[constraint(has_one = owner)]
    pub record: Mut<Account<TokenRecord>>,
    pub owner: UncheckedAccount,
}

#[context]
pub struct ReadOwned {
    #[constraint(has_one = owner)]
    pub record: Account<TokenRecord>,
    pub owner: UncheckedAccount,
}

#[context]
pub struct Write {
    pub record: Mut<Account<TokenRecord>>,
    pub owner: UncheckedAccount,
}

/// typhoon's `Mut` does not check the writable flag (the runtime would
/// refuse the write after the program ran, `ReadonlyDataModified`, not a
/// program error): checked here before anything is written, as Anchor and
/// the family's programs do.
fn writable(account: &impl AsRef<AccountView>) -> ProgramResult {
    if account.as_ref().is_writable() {
        Ok(())
    } else {
        Err(ProgramError::Immutable.into())
    }
}

/// Check the owner, then set `state` and `amount` in place.
pub fn full(ctx: WriteOwned) -> ProgramResult {
    let mut record = ctx.record.mut_data()?;
    writable(&ctx.record)?;
    record.state = NEW_STATE;
    record.amount = NEW_AMOUNT.to_le_bytes();
    Ok(())
}

/// Check the owner; write nothing.
pub fn read_owner(_ctx: ReadOwned) -> ProgramResult {
    Ok(())
}

/// Set `state` and `amount`, keeping every other field.
pub fn update_amount(ctx: Write) -> ProgramResult {
    let mut record = ctx.record.mut_data()?;
    writable(&ctx.record)?;
    record.state = NEW_STATE;
    record.amount = NEW_AMOUNT.to_le_bytes();
    Ok(())
}

/// The family's op bytes: typhoon's router takes a one-byte discriminator.
pub const ROUTER: EntryFn = basic_router! {
    0 => full,
    1 => read_owner,
    2 => update_amount,
};

entrypoint!();
nostd_panic_handler!();
no_allocator!();
