//! SPL's own style: the record is a type of the program's with
//! `solana_program_pack::Pack`, its fields split out of the bytes with
//! `arrayref`'s `array_refs!` and written back with `mut_array_refs!`, as
//! spl-token's `state.rs` lays out its `Account` and `Mint`. Every
//! operation is an owned round trip (`RoundTrip`): `Pack::unpack` (which
//! checks the length is exactly `LEN`, then `IsInitialized`) and
//! `Pack::pack`. In the `at_least` and `unchecked` shapes the program
//! hands `Pack` the first 160 bytes, refusing shorter data itself.
#![no_std]

use arrayref::{array_mut_ref, array_ref, array_refs, mut_array_refs};
use common::{
    ProgramError, ProgramResult,
    token::{Account, AccountBytes, Codec, RoundTrip},
};
use solana_program_pack::{IsInitialized, Pack, Sealed};

/// The token record as the program's own state type.
struct Record(Account);

impl Sealed for Record {}

impl IsInitialized for Record {
    /// The family's record has no uninitialized state (spl-token's
    /// `Account` reads its `state` byte here).
    fn is_initialized(&self) -> bool {
        true
    }
}

impl Pack for Record {
    const LEN: usize = Account::LEN;

    fn unpack_from_slice(src: &[u8]) -> Result<Self, ProgramError> {
        let src = array_ref![src, 0, Account::LEN];
        let (
            mint,
            owner,
            amount,
            delegate,
            state,
            padding,
            native_amount,
            delegated_amount,
            close_authority,
        ) = array_refs![src, 32, 32, 8, 32, 1, 7, 8, 8, 32];
        Ok(Record(Account {
            mint: *mint,
            owner: *owner,
            amount: u64::from_le_bytes(*amount),
            delegate: *delegate,
            state: state[0],
            _padding: *padding,
            native_amount: u64::from_le_bytes(*native_amount),
            delegated_amount: u64::from_le_bytes(*delegated_amount),
            close_authority: *close_authority,
        }))
    }

    fn pack_into_slice(&self, dst: &mut [u8]) {
        let dst = array_mut_ref![dst, 0, Account::LEN];
        let (
            mint,
            owner,
            amount,
            delegate,
            state,
            padding,
            native_amount,
            delegated_amount,
            close_authority,
        ) = mut_array_refs![dst, 32, 32, 8, 32, 1, 7, 8, 8, 32];
        let account = &self.0;
        *mint = account.mint;
        *owner = account.owner;
        *amount = account.amount.to_le_bytes();
        *delegate = account.delegate;
        state[0] = account.state;
        *padding = account._padding;
        *native_amount = account.native_amount.to_le_bytes();
        *delegated_amount = account.delegated_amount.to_le_bytes();
        *close_authority = account.close_authority;
    }
}

struct SplPack;

impl Codec for SplPack {
    fn decode(data: &AccountBytes) -> Result<Account, ProgramError> {
        let bytes = data
            .get(..Account::LEN)
            .ok_or(ProgramError::InvalidAccountData)?;
        Ok(Record::unpack(bytes)?.0)
    }

    fn encode(account: &Account, data: &mut AccountBytes) -> ProgramResult {
        let bytes = data
            .get_mut(..Account::LEN)
            .ok_or(ProgramError::InvalidAccountData)?;
        Record::pack(Record(*account), bytes)
    }
}

common::token_program!(RoundTrip<SplPack>);
