//! The metadata family's contract (docs/metadata.md) as an
//! oracle: each operation's benchmark call, and what any call must produce.

use common::metadata::{HostFormat, Metadata, Operation, check_new_uri, host_format};
use solana_program_error::ProgramError;

use crate::{HarnessError, Input, Program};

/// What `set_uri` appends to an instance's uri (17 bytes, as the spec asks).
const LONGER_URI: &str = "&rev=2&shard=0001";

/// The uri the benchmark's `set_uri` writes: 17 bytes longer than the
/// instance's, or, where that would pass the bound, 17 bytes shorter.
pub fn new_uri(metadata: &Metadata) -> String {
    let longer = format!("{}{LONGER_URI}", metadata.uri);
    if longer.len() <= common::metadata::MAX_URI {
        return longer;
    }
    let target = metadata.uri.len() - LONGER_URI.len();
    let mut shorter: String = metadata
        .uri
        .char_indices()
        .take_while(|(at, c)| at + c.len_utf8() <= target)
        .map(|(_, c)| c)
        .collect();
    while shorter.len() < target {
        shorter.push('0');
    }
    shorter
}

/// The instruction data of each operation's benchmark call on `metadata`:
/// `read_collection` asks for the record's own collection key (the mint
/// where it has none: an error path), `read_royalty` for the stored value.
pub fn instruction_data(operation: &str, metadata: &Metadata) -> Vec<u8> {
    match operation {
        "full" => vec![0],
        "read_collection" => {
            let key = metadata
                .collection
                .as_ref()
                .map_or(metadata.mint, |c| c.key);
            [&[1][..], &key].concat()
        }
        "verify_creator" => vec![2],
        "read_royalty" => [&[3][..], &metadata.seller_fee_basis_points.to_le_bytes()].concat(),
        "set_uri" => [&[4][..], new_uri(metadata).as_bytes()].concat(),
        other => panic!("no metadata operation `{other}`"),
    }
}

/// The benchmark call of `operation` on `metadata` in `format`: both
/// accounts, account [0] writable; account [1] the last creator for
/// `verify_creator` (the update authority where there are none), else the
/// update authority.
pub fn valid_input(format: &HostFormat, operation: &str, metadata: &Metadata) -> Input {
    Input {
        instruction_data: instruction_data(operation, metadata),
        account_count: 2,
        writable: true,
        data: format.account(metadata),
        owner_key: signer_of(operation, metadata),
    }
}

/// Account [1]'s key in the benchmark call of `operation`: the last
/// creator for `verify_creator` (the update authority where there are
/// none), else the update authority.
pub fn signer_of(operation: &str, metadata: &Metadata) -> [u8; 32] {
    let last_creator = metadata.creators.iter().flatten().last();
    match (operation, last_creator) {
        ("verify_creator", Some(creator)) => creator.address,
        _ => metadata.update_authority,
    }
}

/// What a metadata program must do with `input`, from the spec's contract
/// and the format's host codec: account [0]'s data afterwards, or the
/// error. A format that validates less than the whole record may succeed
/// where this says `InvalidAccountData` (the property test allows that);
/// on valid encodings it is exact.
pub fn expected(format: &HostFormat, input: &Input) -> Result<Vec<u8>, ProgramError> {
    if input.account_count < 2 {
        return Err(ProgramError::NotEnoughAccountKeys);
    }
    let operation = Operation::parse(&input.instruction_data)?;
    if operation.writes() && !input.writable {
        return Err(ProgramError::Immutable);
    }
    let (mut record, old_len) =
        (format.decode)(&input.data).ok_or(ProgramError::InvalidAccountData)?;
    let authority = || {
        if record.update_authority == input.owner_key {
            Ok(())
        } else {
            Err(ProgramError::IncorrectAuthority)
        }
    };
    match operation {
        Operation::Full => {
            authority()?;
            record.primary_sale_happened = true;
        }
        Operation::ReadCollection(key) => {
            return read_collection(&record, key).map(|()| input.data.clone());
        }
        Operation::VerifyCreator => verify_creator(&mut record, &input.owner_key)?,
        Operation::ReadRoyalty(bps) => {
            return read_royalty(&record, bps).map(|()| input.data.clone());
        }
        Operation::SetUri(uri) => {
            authority()?;
            record.uri = check_new_uri(record.is_mutable, uri)?.into();
        }
    }
    write_back(&input.data, 0, &(format.encode)(&record), old_len)
}

/// `read_collection` on a decoded record: its collection is set,
/// verified, and has `key`.
pub fn read_collection(record: &Metadata, key: &[u8; 32]) -> Result<(), ProgramError> {
    match &record.collection {
        Some(c) if c.verified && &c.key == key => Ok(()),
        _ => Err(ProgramError::InvalidArgument),
    }
}

/// `verify_creator` on a decoded record: `creator` is one; mark it.
pub fn verify_creator(record: &mut Metadata, creator: &[u8; 32]) -> Result<(), ProgramError> {
    let found = record
        .creators
        .iter_mut()
        .flatten()
        .find(|c| &c.address == creator)
        .ok_or(ProgramError::InvalidArgument)?;
    found.verified = true;
    Ok(())
}

/// `read_royalty` on a decoded record: its royalty is `bps`.
pub fn read_royalty(record: &Metadata, bps: u16) -> Result<(), ProgramError> {
    if record.seller_fee_basis_points == bps {
        Ok(())
    } else {
        Err(ProgramError::InvalidArgument)
    }
}

/// `data` with `encoded` written from `at` over a record whose encoding
/// took `old_len` bytes there, and zeros over what a shorter one frees;
/// `InvalidAccountData` where it would pass the account's end.
pub fn write_back(
    data: &[u8],
    at: usize,
    encoded: &[u8],
    old_len: usize,
) -> Result<Vec<u8>, ProgramError> {
    let mut after = data.to_vec();
    let record = &mut after[at..];
    record
        .get_mut(..encoded.len())
        .ok_or(ProgramError::InvalidAccountData)?
        .copy_from_slice(encoded);
    if let Some(freed) = record.get_mut(encoded.len()..old_len) {
        freed.fill(0);
    }
    Ok(after)
}

/// The host codec of a metadata program.
///
/// # Panics
/// If there is none; [`host_codec`] says so as an error instead.
pub fn format_of(program: &Program) -> &'static HostFormat {
    host_codec(program).unwrap_or_else(|e| panic!("{e}"))
}

/// The host codec of a metadata program, or what to do without one.
pub fn host_codec(program: &Program) -> Result<&'static HostFormat, HarnessError> {
    program.host_codec(host_format)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metadata::instances::{INSTANCES, OPERATIONS, instance};

    /// The benchmark calls: what the spec says each one does, per instance.
    #[test]
    fn oracle_on_the_benchmark_calls() {
        let borsh = host_format("borsh").unwrap();
        for name in INSTANCES {
            let metadata = instance(name);
            for op in OPERATIONS {
                let input = valid_input(borsh, op, &metadata);
                let got = expected(borsh, &input);
                let error_path =
                    name == "minimal" && matches!(op, "read_collection" | "verify_creator");
                if error_path {
                    assert_eq!(got, Err(ProgramError::InvalidArgument), "{name} {op}");
                    continue;
                }
                let after = got.unwrap_or_else(|e| panic!("{name} {op}: {e:?}"));
                let mut want = metadata.clone();
                match op {
                    "full" => want.primary_sale_happened = true,
                    "verify_creator" => {
                        want.creators.as_mut().unwrap().last_mut().unwrap().verified = true
                    }
                    "set_uri" => want.uri = new_uri(&metadata),
                    _ => {}
                }
                assert_eq!(after, borsh.account(&want), "{name} {op}");
            }
        }
    }

    #[test]
    fn set_uri_moves_17_bytes_either_way() {
        for name in INSTANCES {
            let metadata = instance(name);
            let new = new_uri(&metadata);
            let delta = new.len() as isize - metadata.uri.len() as isize;
            assert_eq!(delta.abs(), 17, "{name}");
            assert_eq!(delta < 0, name == "full", "{name}");
        }
    }
}
