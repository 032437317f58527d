//! The metadata record as a star_frame instruction's argument
//! (`programs/star_frame/metadata/args`), as the Anchor programs'
//! `args_and_events` take it: `set_record` decodes the record (borsh) and
//! stores its `seller_fee_basis_points` at the start of account [0].
//! star_frame's checks, in its order: the instruction's 8-byte
//! discriminant (`AdvanceError` if shorter, `InvalidInstructionData` if
//! unknown); the argument's borsh encoding, trailing bytes ignored
//! (`IoError`), decoded as Anchor 1.x decodes the same record
//! ([`anchor1::metadata::decode_argument`]: a string whose length prefix
//! claims more than the heap aborts); one account (`AdvanceError`),
//! writable (`ExpectedWritable`); then account [0] long enough for the
//! stored field (`AccountDataTooSmall`).

use common::metadata::Metadata;
use solana_program_error::ProgramError;

use super::{ADVANCE_ERROR, EXPECTED_WRITABLE, metadata::IO_ERROR, sighash};
use crate::{
    Case, Input, Program,
    frameworks::anchor1::{self, DID_NOT_DESERIALIZE_ARGS},
    metadata::{INSTANCES, instance},
};

/// The program's folder under `programs/star_frame/`.
pub const NAME: &str = "metadata/args";
/// Its one handler, and so its rows' operation.
pub const OPERATION: &str = "set_record";

const DISCRIMINANT_LEN: usize = 8;

/// The benchmark call on `metadata`: the handler's discriminant and the
/// record's borsh encoding; account [0] 48 bytes of `0x77`, writable.
pub fn valid_input(metadata: &Metadata) -> Input {
    Input {
        instruction_data: [
            &sighash("global", OPERATION)[..],
            &borsh::to_vec(metadata).expect("a record encodes"),
        ]
        .concat(),
        account_count: 1,
        writable: true,
        data: vec![0x77; 48],
        owner_key: [0; 32],
    }
}

/// The call on each instance.
pub fn cases(program: &Program) -> Vec<Case> {
    INSTANCES
        .into_iter()
        .map(|name| {
            let input = valid_input(&instance(name));
            let encoded = input.instruction_data.len() - DISCRIMINANT_LEN;
            Case::new(program, OPERATION, &input).with_instance(name, encoded)
        })
        .collect()
}

/// What `input` must produce: account [0]'s data after it, or the error.
pub fn expected(input: &Input) -> Result<Vec<u8>, ProgramError> {
    let data = &input.instruction_data;
    let tag = data.get(..DISCRIMINANT_LEN).ok_or(ADVANCE_ERROR)?;
    if tag != sighash("global", OPERATION) {
        return Err(ProgramError::InvalidInstructionData);
    }
    let (record, _) =
        anchor1::metadata::decode_argument(&data[DISCRIMINANT_LEN..]).map_err(|e| {
            if e == DID_NOT_DESERIALIZE_ARGS {
                IO_ERROR
            } else {
                e
            }
        })?;
    if input.account_count < 1 {
        return Err(ADVANCE_ERROR);
    }
    if !input.writable {
        return Err(EXPECTED_WRITABLE);
    }
    let field = record.seller_fee_basis_points.to_le_bytes();
    let mut after = input.data.clone();
    after
        .get_mut(..field.len())
        .ok_or(ProgramError::AccountDataTooSmall)?
        .copy_from_slice(&field);
    Ok(after)
}
