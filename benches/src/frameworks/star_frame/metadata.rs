//! The metadata record in star_frame's own variable-length layout
//! (`programs/star_frame/metadata/account`, an `#[unsized_type]` program
//! account): behind the 8-byte discriminant `sha256("account:Metadata")`,
//! the record's fixed-size fields packed in order ([`SIZED_LEN`] bytes:
//! the key, the two keys, the royalty, the flags, each option a flag and a
//! value as the fixed-capacity layout has them, then whether the creators
//! are set), then the name, the symbol and the uri as `UnsizedString`s and
//! the creators as a `List` (each a `u32` count, then the bytes or the
//! 34-byte items). The account is as long as the record; `set_uri` resizes
//! it, moving what follows the uri.
//!
//! Its checks, in its order: the instruction's 8-byte discriminant
//! (`AdvanceError` if shorter, `InvalidInstructionData` if unknown); the
//! arguments in borsh (`read_royalty`'s `u16`, `set_uri`'s `String`,
//! UTF-8 checked; trailing bytes ignored): anything short or not UTF-8
//! `IoError`, but a uri whose length prefix claims more than the data
//! holds has borsh preallocate up to 1 MiB first, which past the 32 KiB
//! heap aborts the program ([`string_claim`]), as in Anchor 1.x; fewer than two accounts `AdvanceError`; the account's
//! discriminant (`AccountDataTooSmall`, `DiscriminantMismatch`), then for
//! `set_uri` account [0] writable (`ExpectedWritable`); then `data()` /
//! `data_mut()` lays the record over the bytes: the fixed-size fields and
//! each length, and what it counts, must fit in what is left
//! (`RawSliceAdvance`; bytes past the record are accepted and kept); then
//! the handler: the key `MetadataV1` (and for `set_uri` the mutable flag a
//! bool) `InvalidAccountData`, the update authority `IncorrectAuthority`,
//! the record mutable and the uri within its bound `InvalidArgument`.

use common::metadata::{FixedCapacity, MAX_URI, Metadata};
use solana_program_error::ProgramError;

use super::{ADVANCE_ERROR, DISCRIMINANT_MISMATCH, EXPECTED_WRITABLE, RAW_SLICE_ADVANCE, sighash};
use crate::{
    Case, Input, Program,
    frameworks::{
        fixed_metadata::{Call, OPERATIONS},
        string_claim,
    },
    metadata::{INSTANCES, contract::signer_of, instance},
};

/// star_frame's `ErrorCode::IoError`: arguments borsh cannot decode.
pub const IO_ERROR: ProgramError = ProgramError::Custom(9001);

const DISCRIMINANT_LEN: usize = 8;
/// The record's fixed-size fields.
pub const SIZED_LEN: usize = 1 + 32 + 32 + 2 + 2 + 2 + 2 + 2 + 32 + 2 + 16 + 2 + 8 + 3 + 32 + 1;
const KEY: usize = 0;
const AUTHORITY: std::ops::Range<usize> = 1..33;
const ROYALTY: std::ops::Range<usize> = 65..67;
const IS_MUTABLE: usize = 68;
/// A creator's bytes in the list.
const CREATOR_LEN: usize = 34;

/// The record's bytes (after the discriminant).
pub fn record(m: &Metadata) -> Vec<u8> {
    let f = FixedCapacity::new(m);
    let mut out = vec![f.key];
    out.extend(f.update_authority);
    out.extend(f.mint);
    out.extend(f.seller_fee_basis_points);
    out.extend([f.primary_sale_happened, f.is_mutable]);
    out.extend([f.has_edition_nonce, f.edition_nonce]);
    out.extend([f.has_token_standard, f.token_standard]);
    out.extend([f.has_collection, f.collection_verified]);
    out.extend(f.collection_key);
    out.extend([f.has_uses, f.use_method]);
    out.extend(f.uses_remaining);
    out.extend(f.uses_total);
    out.extend([f.has_collection_details, f.collection_details]);
    out.extend(f.collection_details_value);
    out.extend([
        f.has_programmable_config,
        f.programmable_config,
        f.has_rule_set,
    ]);
    out.extend(f.rule_set);
    out.push(u8::from(m.creators.is_some()));
    for text in [&m.name, &m.symbol, &m.uri] {
        out.extend((text.len() as u32).to_le_bytes());
        out.extend(text.as_bytes());
    }
    let creators = m.creators.as_deref().unwrap_or_default();
    out.extend((creators.len() as u32).to_le_bytes());
    for c in creators {
        out.extend(c.address);
        out.extend([u8::from(c.verified), c.share]);
    }
    out
}

/// The account holding `metadata`: the discriminant, then the record.
pub fn account(metadata: &Metadata) -> Vec<u8> {
    [&sighash("account", "Metadata")[..], &record(metadata)].concat()
}

/// The instruction data of `call`: its discriminant, then its argument in
/// borsh.
pub fn call_data(call: &Call) -> Vec<u8> {
    match call {
        Call::ReadRoyalty(bps) => {
            [&sighash("global", "read_royalty")[..], &bps.to_le_bytes()].concat()
        }
        Call::SetUri(uri) => [
            &sighash("global", "set_uri")[..],
            &(uri.len() as u32).to_le_bytes(),
            uri,
        ]
        .concat(),
    }
}

/// The benchmark call of `operation` on `metadata`.
pub fn valid_input(operation: &str, metadata: &Metadata) -> Input {
    Input {
        instruction_data: call_data(&Call::benchmark(operation, metadata)),
        account_count: 2,
        writable: true,
        data: account(metadata),
        owner_key: signer_of(operation, metadata),
    }
}

/// Each operation on each instance.
pub fn cases(program: &Program) -> Vec<Case> {
    let mut cases = Vec::new();
    for name in INSTANCES {
        let metadata = instance(name);
        for op in OPERATIONS {
            let input = valid_input(op, &metadata);
            let encoded = input.data.len();
            cases.push(Case::new(program, op, &input).with_instance(name, encoded));
        }
    }
    cases
}

/// The call in `instruction_data`, as star_frame decodes it.
fn parse(instruction_data: &[u8]) -> Result<Call, ProgramError> {
    let tag = instruction_data
        .get(..DISCRIMINANT_LEN)
        .ok_or(ADVANCE_ERROR)?;
    let args = &instruction_data[DISCRIMINANT_LEN..];
    if tag == sighash("global", "read_royalty") {
        let bps = args.first_chunk().ok_or(IO_ERROR)?;
        Ok(Call::ReadRoyalty(u16::from_le_bytes(*bps)))
    } else if tag == sighash("global", "set_uri") {
        let len = u32::from_le_bytes(*args.first_chunk().ok_or(IO_ERROR)?) as usize;
        let uri = args[4..]
            .get(..len)
            .ok_or_else(|| string_claim(len, IO_ERROR))?;
        std::str::from_utf8(uri).map_err(|_| IO_ERROR)?;
        Ok(Call::SetUri(uri.to_vec()))
    } else {
        Err(ProgramError::InvalidInstructionData)
    }
}

/// Where the uri's length prefix starts and where the uri ends, in the
/// record, if every length fits in `record` (what `data()` checks).
fn uri_span(record: &[u8]) -> Result<(usize, usize), ProgramError> {
    let mut at = SIZED_LEN;
    let mut list = |item: usize| -> Result<(usize, usize), ProgramError> {
        let start = at;
        let count = record
            .get(at..at + 4)
            .ok_or(RAW_SLICE_ADVANCE)?
            .try_into()
            .map(u32::from_le_bytes)
            .expect("four bytes") as usize;
        at += 4 + count * item;
        if at > record.len() {
            return Err(RAW_SLICE_ADVANCE);
        }
        Ok((start, at))
    };
    if record.len() < SIZED_LEN {
        return Err(RAW_SLICE_ADVANCE);
    }
    list(1)?;
    list(1)?;
    let uri = list(1)?;
    list(CREATOR_LEN)?;
    Ok(uri)
}

/// What the star_frame metadata program must do with `input`.
pub fn expected(input: &Input) -> Result<Vec<u8>, ProgramError> {
    let call = parse(&input.instruction_data)?;
    if input.account_count < 2 {
        return Err(ADVANCE_ERROR);
    }
    let data = &input.data;
    let tag = data
        .get(..DISCRIMINANT_LEN)
        .ok_or(ProgramError::AccountDataTooSmall)?;
    if tag != sighash("account", "Metadata") {
        return Err(DISCRIMINANT_MISMATCH);
    }
    if call.writes() && !input.writable {
        return Err(EXPECTED_WRITABLE);
    }
    let record = &data[DISCRIMINANT_LEN..];
    let (uri_start, uri_end) = uri_span(record)?;
    let invalid = ProgramError::InvalidAccountData;
    let uri = match call {
        Call::ReadRoyalty(bps) => {
            if record[KEY] != 4 {
                return Err(invalid);
            }
            return if record[ROYALTY] == bps.to_le_bytes() {
                Ok(data.clone())
            } else {
                Err(ProgramError::InvalidArgument)
            };
        }
        Call::SetUri(uri) => uri,
    };
    if record[KEY] != 4 || record[IS_MUTABLE] > 1 {
        return Err(invalid);
    }
    if record[AUTHORITY] != input.owner_key {
        return Err(ProgramError::IncorrectAuthority);
    }
    if record[IS_MUTABLE] != 1 || uri.len() > MAX_URI {
        return Err(ProgramError::InvalidArgument);
    }
    let at = DISCRIMINANT_LEN;
    Ok([
        &data[..at + uri_start],
        &(uri.len() as u32).to_le_bytes(),
        &uri,
        &data[at + uri_end..],
    ]
    .concat())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The offsets are where `record` puts the fields, and the fixed-size
    /// part ends where the name's length begins.
    #[test]
    fn offsets_are_the_records() {
        let m = instance("typical");
        let bytes = record(&m);
        assert_eq!(bytes[KEY], 4);
        assert_eq!(bytes[AUTHORITY], m.update_authority);
        assert_eq!(bytes[ROYALTY], m.seller_fee_basis_points.to_le_bytes());
        assert_eq!(bytes[IS_MUTABLE], u8::from(m.is_mutable));
        assert_eq!(bytes[SIZED_LEN - 1], u8::from(m.creators.is_some()));
        let name_len = u32::from_le_bytes(bytes[SIZED_LEN..SIZED_LEN + 4].try_into().unwrap());
        assert_eq!(name_len as usize, m.name.len());
        let (start, end) = uri_span(&bytes).unwrap();
        assert_eq!(&bytes[start + 4..end], m.uri.as_bytes());
    }
}
