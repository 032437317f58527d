//! A caller for `make profile SO=`'s CPI fixtures: it moves tokens by a
//! CPI into spl-token's `Transfer`, as most real instructions reach the
//! token program. Not a crate's row, so not under programs/ and not
//! measured by `make bench`; built by `make published`, beside the
//! spl-token it calls.
//!
//! Accounts: the source token account, the destination, the owner
//! (signs), and the token program. Data: the amount, a u64 in little
//! endian.
#![no_std]

use pinocchio::{
    AccountView, Address, ProgramResult,
    cpi::invoke,
    error::ProgramError,
    instruction::{InstructionAccount, InstructionView},
};

// The SVM's memcpy family, as every program of this project links it.
use solana_compiler_builtins as _;

pinocchio::program_entrypoint!(process_instruction);
pinocchio::nostd_panic_handler!();
pinocchio::no_allocator!();

/// spl-token's `Transfer` instruction tag.
const TRANSFER: u8 = 3;

fn process_instruction(
    _program_id: &Address,
    accounts: &mut [AccountView],
    data: &[u8],
) -> ProgramResult {
    let [source, destination, owner, token_program] = &accounts[..] else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    let amount: [u8; 8] = data
        .try_into()
        .map_err(|_| ProgramError::InvalidInstructionData)?;
    let mut transfer = [0u8; 9];
    transfer[0] = TRANSFER;
    transfer[1..].copy_from_slice(&amount);
    let metas = [
        InstructionAccount::writable(source.address()),
        InstructionAccount::writable(destination.address()),
        InstructionAccount::readonly_signer(owner.address()),
    ];
    let instruction = InstructionView {
        program_id: token_program.address(),
        data: &transfer,
        accounts: &metas,
    };
    invoke(&instruction, &[source, destination, owner])
}
