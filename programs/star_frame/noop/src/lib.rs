//! star_frame's floor: the token family's three instructions, each taking
//! the same two accounts unchecked and doing nothing. What it costs is
//! star_frame's own: its entrypoint, the instruction set's dispatch on an
//! 8-byte discriminant, the accounts. Reports subtract it to show what the
//! account type adds. Not held to the contract.

// Memory and integer builtins for the SVM (the linker asks for them).
use solana_compiler_builtins as _;
use star_frame::prelude::*;

// The harness loads it at Program::id_for("star_frame/noop").
#[derive(StarFrameProgram)]
#[program(
    instruction_set = NoopInstructionSet,
    id = "A4DsqhANuxxXRQwfj6TZ5HQ3YqTzwfyoXkzP88TRt2S5"
)]
pub struct NoopProgram;

#[derive(InstructionSet)]
pub enum NoopInstructionSet {
    Full(Full),
    ReadOwner(ReadOwner),
    UpdateAmount(UpdateAmount),
}

#[derive(BorshSerialize, BorshDeserialize, Debug, Copy, Clone, InstructionArgs)]
pub struct Full;

#[derive(BorshSerialize, BorshDeserialize, Debug, Copy, Clone, InstructionArgs)]
pub struct ReadOwner;

#[derive(BorshSerialize, BorshDeserialize, Debug, Copy, Clone, InstructionArgs)]
pub struct UpdateAmount;

#[derive(AccountSet, Debug)]
pub struct Unchecked {
    pub record: AccountInfo,
    pub owner: AccountInfo,
}

#[star_frame_instruction]
fn Full(_accounts: &mut Unchecked) -> Result<()> {
    Ok(())
}

#[star_frame_instruction]
fn ReadOwner(_accounts: &mut Unchecked) -> Result<()> {
    Ok(())
}

#[star_frame_instruction]
fn UpdateAmount(_accounts: &mut Unchecked) -> Result<()> {
    Ok(())
}
