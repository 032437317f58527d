//! The metadata family's record at fixed capacity
//! ([`common::metadata::FixedCapacity`], 586 bytes, as the pinocchio
//! bytemuck row holds it) in the frameworks whose accounts are `Pod`
//! records: Steel, star_frame and Hopper, each behind its own
//! discriminator or header. Their programs run the family's `read_royalty`
//! and `set_uri` (the operations whose arguments each framework decodes:
//! a `u16`, a string). What the record's own checks are, once the
//! framework has admitted the account, is shared here; each framework's
//! module states the checks before them.

use common::metadata::{FIXED_CAPACITY_LEN, MAX_URI, Metadata, host_format};
use solana_program_error::ProgramError;

use crate::{
    Case, Input, Program,
    metadata::{INSTANCES, contract::signer_of, instance, new_uri},
};

/// The family's operations these programs run.
pub const OPERATIONS: [&str; 2] = ["read_royalty", "set_uri"];

/// `Key::MetadataV1`'s variant, the record's first byte.
const METADATA_V1: u8 = 4;
/// Where the fields the operations read sit in the record.
pub const URI_LEN: usize = 1 + 32 + 32 + 1 + 32 + 1 + 10;
const URI: usize = URI_LEN + 1;
const ROYALTY: usize = URI + MAX_URI;
pub const IS_MUTABLE: usize = ROYALTY + 2 + 1 + 5 * 34 + 1;
const AUTHORITY: std::ops::Range<usize> = 1..33;

/// A call of one of [`OPERATIONS`], its argument decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Call {
    ReadRoyalty(u16),
    SetUri(Vec<u8>),
}

impl Call {
    /// The benchmark call of `operation` on `metadata`: the stored royalty,
    /// the uri 17 bytes longer (or shorter).
    pub fn benchmark(operation: &str, metadata: &Metadata) -> Self {
        match operation {
            "read_royalty" => Self::ReadRoyalty(metadata.seller_fee_basis_points),
            "set_uri" => Self::SetUri(new_uri(metadata).into_bytes()),
            other => panic!("no fixed-capacity metadata operation `{other}`"),
        }
    }

    /// The call in the family's instruction data, parsed as Steel's and
    /// Hopper's own argument decoders parse it: the op byte, then
    /// `read_royalty`'s `u16`, exactly two bytes, or `set_uri`'s uri, the
    /// rest; anything else `InvalidInstructionData`.
    pub fn parse_exact(instruction_data: &[u8]) -> Result<Self, ProgramError> {
        let invalid = ProgramError::InvalidInstructionData;
        match instruction_data.split_first() {
            Some((3, args)) => Ok(Self::ReadRoyalty(u16::from_le_bytes(
                args.try_into().map_err(|_| invalid)?,
            ))),
            Some((4, uri)) => Ok(Self::SetUri(uri.to_vec())),
            _ => Err(invalid),
        }
    }

    pub fn writes(&self) -> bool {
        matches!(self, Self::SetUri(_))
    }
}

/// The record's bytes: `metadata` in its slots, unused bytes zero (the
/// bytemuck row's host codec).
pub fn record(metadata: &Metadata) -> Vec<u8> {
    let fixed = host_format("bytemuck").expect("the fixed-capacity host codec");
    (fixed.encode)(metadata)
}

/// The benchmark cases of a framework's metadata program: each operation
/// on each instance, `input` laying the call out the framework's way.
pub fn cases(
    program: &Program,
    before_record: usize,
    input: fn(&str, &Metadata) -> Input,
) -> Vec<Case> {
    let mut cases = Vec::new();
    for name in INSTANCES {
        let metadata = instance(name);
        for op in OPERATIONS {
            let case = Case::new(program, op, &input(op, &metadata));
            cases.push(case.with_instance(name, before_record + FIXED_CAPACITY_LEN));
        }
    }
    cases
}

/// The account holding `metadata` behind `header`.
pub fn account(header: &[u8], metadata: &Metadata) -> Vec<u8> {
    [header, &record(metadata)].concat()
}

/// A framework's benchmark call of `operation` on `metadata`: its
/// `instruction_data`, the record behind `header`, the family's signer.
pub fn input(
    instruction_data: Vec<u8>,
    header: &[u8],
    operation: &str,
    metadata: &Metadata,
) -> Input {
    Input {
        instruction_data,
        account_count: 2,
        writable: true,
        data: account(header, metadata),
        owner_key: signer_of(operation, metadata),
    }
}

/// What `call` does to the record `at` bytes into `data` once the
/// framework has admitted the account (its owner, length and
/// discriminator or header): the record's key must be `MetadataV1`
/// (`InvalidAccountData`); then
/// - `read_royalty`: the stored royalty must be the argument
///   (`InvalidArgument`);
/// - `set_uri`: the old uri's length within its slot and the mutable flag
///   a bool (`InvalidAccountData`), account [1] the update authority
///   (`IncorrectAuthority`), the record mutable and the new uri UTF-8
///   within its bound (`InvalidArgument`); the uri written in its slot,
///   what a shorter one frees zeroed, its length set.
pub fn apply(
    data: &[u8],
    at: usize,
    call: &Call,
    signer: &[u8; 32],
) -> Result<Vec<u8>, ProgramError> {
    let record = &data[at..at + FIXED_CAPACITY_LEN];
    if record[0] != METADATA_V1 {
        return Err(ProgramError::InvalidAccountData);
    }
    let uri = match call {
        Call::ReadRoyalty(bps) => {
            return if record[ROYALTY..ROYALTY + 2] == bps.to_le_bytes() {
                Ok(data.to_vec())
            } else {
                Err(ProgramError::InvalidArgument)
            };
        }
        Call::SetUri(uri) => uri,
    };
    let old_len = usize::from(record[URI_LEN]);
    if old_len > MAX_URI || record[IS_MUTABLE] > 1 {
        return Err(ProgramError::InvalidAccountData);
    }
    if record[AUTHORITY] != signer[..] {
        return Err(ProgramError::IncorrectAuthority);
    }
    if record[IS_MUTABLE] != 1 || uri.len() > MAX_URI || std::str::from_utf8(uri).is_err() {
        return Err(ProgramError::InvalidArgument);
    }
    let mut after = data.to_vec();
    let slot = &mut after[at + URI..at + URI + MAX_URI];
    slot[..uri.len()].copy_from_slice(uri);
    if let Some(freed) = slot.get_mut(uri.len()..old_len) {
        freed.fill(0);
    }
    after[at + URI_LEN] = uri.len() as u8;
    Ok(after)
}

#[cfg(test)]
mod tests {
    use common::metadata::FixedCapacity;

    use super::*;

    /// The offsets above are `FixedCapacity`'s fields.
    #[test]
    fn offsets_are_the_structs() {
        let metadata = instance("typical");
        let fixed = FixedCapacity::new(&metadata);
        let bytes = record(&metadata);
        assert_eq!(bytes[URI_LEN], fixed.uri_len);
        assert_eq!(bytes[URI..URI + MAX_URI], fixed.uri);
        assert_eq!(bytes[ROYALTY..ROYALTY + 2], fixed.seller_fee_basis_points);
        assert_eq!(bytes[IS_MUTABLE], fixed.is_mutable);
        assert_eq!(bytes[AUTHORITY], fixed.update_authority);
        let moved = record(&Metadata {
            is_mutable: !metadata.is_mutable,
            ..metadata.clone()
        });
        let differ: Vec<usize> = (0..bytes.len()).filter(|&i| bytes[i] != moved[i]).collect();
        assert_eq!(differ, [IS_MUTABLE]);
    }

    /// `set_uri` on each instance writes the new uri and nothing else.
    #[test]
    fn set_uri_writes_the_slot_alone() {
        for name in INSTANCES {
            let metadata = instance(name);
            let call = Call::benchmark("set_uri", &metadata);
            let data = [&[9u8; 3][..], &record(&metadata)].concat();
            let after = apply(&data, 3, &call, &metadata.update_authority).unwrap();
            let want = Metadata {
                uri: new_uri(&metadata),
                ..metadata
            };
            assert_eq!(after[3..], record(&want)[..], "{name}");
            assert_eq!(after[..3], [9; 3]);
        }
    }
}
