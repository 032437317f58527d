//! Steel's floor: the token family's three instructions, each taking the
//! same two accounts unchecked and doing nothing. What it costs is Steel's
//! own: solana-program's entrypoint, `parse_instruction`, the accounts.
//! Reports subtract it to show what the account type adds. Not held to
//! the contract.

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use steel::*;

// The harness loads it at Program::id_for("steel/noop").
declare_id!("HMFo2Q737x39yE2TrUQtv8hvcyqBRzePqbEY8Ny8JzeU");

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
    let [_record_info, _owner_info, ..] = accounts else {
        return Err(ProgramError::NotEnoughAccountKeys);
    };
    match ix {
        TokenInstruction::Full | TokenInstruction::ReadOwner | TokenInstruction::UpdateAmount => {
            Ok(())
        }
    }
}

entrypoint!(process_instruction);
