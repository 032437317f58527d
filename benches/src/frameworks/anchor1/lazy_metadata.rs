//! The metadata record as Anchor 1.x's `LazyAccount<T>`
//! (`programs/anchor1/metadata/lazy_account`, its `key` a `u8`): the same
//! calls and checks as `Account<T>` ([`super::metadata`]) up to the
//! record, which is not decoded on load. Each field a handler (or `has_one`)
//! loads is found the way anchor-lang 1.2.2's generated loaders find it:
//! its offset is the sum of the sizes of the fields before it, each size
//! read from the data by the field type's `Lazy::size_of` (a string's
//! length prefix, an option's tag, a list's count), then the field is
//! decoded from exactly that slice (`try_from_slice`; a field that does not
//! decode is `BorshIoError`). Anchor reads those sizes and slices without
//! bounds checks: a size read past the data's end, an option or enum tag
//! out of range, or a slice past the end panics, and the program aborts
//! ([`ABORTS`]). A mutable record loads every field in order on exit and
//! encodes the record back from byte 8, the freed bytes left as they were.

use borsh::BorshDeserialize;
use common::metadata::{
    Collection, CollectionDetails, Creator, MAX_URI, ProgrammableConfig, TokenStandard, Uses,
};
use solana_program_error::ProgramError;

use super::{
    ABORTS, CONSTRAINT_HAS_ONE, CONSTRAINT_MUT, NOT_ENOUGH_KEYS, metadata::before_the_record,
};
use crate::{
    Input,
    frameworks::anchor2::metadata::{Operation, checks_authority, writes},
};

const DISCRIMINATOR_LEN: usize = 8;

/// The record's fields in order, by their `Lazy` sizing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    U8,
    Key32,
    Str,
    U16,
    Creators,
    Bool,
    OptionU8,
    OptionTokenStandard,
    OptionCollection,
    OptionUses,
    OptionCollectionDetails,
    OptionProgrammableConfig,
}

const FIELDS: [Field; 16] = [
    Field::U8,    // key (its tag)
    Field::Key32, // update_authority
    Field::Key32, // mint
    Field::Str,   // name
    Field::Str,   // symbol
    Field::Str,   // uri
    Field::U16,   // seller_fee_basis_points
    Field::Creators,
    Field::Bool, // primary_sale_happened
    Field::Bool, // is_mutable
    Field::OptionU8,
    Field::OptionTokenStandard,
    Field::OptionCollection,
    Field::OptionUses,
    Field::OptionCollectionDetails,
    Field::OptionProgrammableConfig,
];
const UPDATE_AUTHORITY: usize = 1;
const URI: usize = 5;
const ROYALTY: usize = 6;
const CREATORS: usize = 7;
const PRIMARY_SALE: usize = 8;
const IS_MUTABLE: usize = 9;
const COLLECTION: usize = 12;

/// A `Lazy::size_of`: the size of what starts `buf`, or the panic.
type SizeOf = fn(&[u8]) -> Result<usize, ProgramError>;

/// `buf[at..]`, or the panic of slicing past the end.
fn from(buf: &[u8], at: usize) -> Result<&[u8], ProgramError> {
    buf.get(at..).ok_or(ABORTS)
}

/// A `u32` length prefix at the start of `buf` (`get_len`).
fn length(buf: &[u8]) -> Result<usize, ProgramError> {
    Ok(u32::from_le_bytes(*buf.first_chunk().ok_or(ABORTS)?) as usize)
}

/// An option's size (`Option::size_of`): its tag, then `some`'s size of
/// the rest where it is 1; any other tag, or none, panics.
fn option(
    buf: &[u8],
    some: impl Fn(&[u8]) -> Result<usize, ProgramError>,
) -> Result<usize, ProgramError> {
    match buf.first() {
        Some(0) => Ok(1),
        Some(1) => Ok(1 + some(&buf[1..])?),
        _ => Err(ABORTS),
    }
}

/// A derived enum's size: its tag (one of `variants`), then its
/// variant's fields' sizes; an unknown tag, or none, panics.
fn tagged(
    buf: &[u8],
    variants: u8,
    fields: impl Fn(u8, &[u8]) -> Result<usize, ProgramError>,
) -> Result<usize, ProgramError> {
    match buf.split_first() {
        Some((&tag, rest)) if tag < variants => Ok(1 + fields(tag, rest)?),
        _ => Err(ABORTS),
    }
}

/// A derived struct's size over `buf`: each field's size read at the sum
/// of the ones before it (`sizes`, in order; a sized field ignores its
/// slice, but the slice is still taken).
fn structure(buf: &[u8], sizes: &[SizeOf]) -> Result<usize, ProgramError> {
    let mut at = 0;
    for size in sizes {
        at += size(from(buf, at)?)?;
    }
    Ok(at)
}

fn creator(buf: &[u8]) -> Result<usize, ProgramError> {
    structure(buf, &[|_| Ok(32), |_| Ok(1), |_| Ok(1)])
}

impl Field {
    /// `Lazy::size_of` of the field's type at the start of `buf`. A sized
    /// type's is a constant (Anchor takes it from an empty slice).
    fn size(self, buf: &[u8]) -> Result<usize, ProgramError> {
        match self {
            Field::U8 | Field::Bool => Ok(1),
            Field::U16 => Ok(2),
            Field::Key32 => Ok(32),
            Field::Str => Ok(4 + length(buf)?),
            Field::Creators => option(buf, |buf| {
                let count = length(buf)?;
                let mut at = 4;
                for _ in 0..count {
                    at += creator(from(buf, at)?)?;
                }
                Ok(at)
            }),
            Field::OptionU8 => option(buf, |_| Ok(1)),
            Field::OptionTokenStandard => option(buf, |buf| tagged(buf, 6, |_, _| Ok(0))),
            Field::OptionCollection => option(buf, |buf| structure(buf, &[|_| Ok(1), |_| Ok(32)])),
            Field::OptionUses => option(buf, |buf| {
                structure(
                    buf,
                    &[|buf| tagged(buf, 3, |_, _| Ok(0)), |_| Ok(8), |_| Ok(8)],
                )
            }),
            Field::OptionCollectionDetails => option(buf, |buf| tagged(buf, 2, |_, _| Ok(8))),
            Field::OptionProgrammableConfig => option(buf, |buf| {
                tagged(buf, 1, |_, rest| option(rest, |_| Ok(32)))
            }),
        }
    }

    /// Whether `bytes` (exactly the field's) decode as its type, as
    /// borsh's `try_from_slice` decodes them.
    fn decodes(self, bytes: &[u8]) -> bool {
        fn whole<T: BorshDeserialize>(bytes: &[u8]) -> bool {
            T::try_from_slice(bytes).is_ok()
        }
        match self {
            Field::U8 | Field::Key32 | Field::U16 => true,
            Field::Str => whole::<String>(bytes),
            Field::Creators => whole::<Option<Vec<Creator>>>(bytes),
            Field::Bool => whole::<bool>(bytes),
            Field::OptionU8 => whole::<Option<u8>>(bytes),
            Field::OptionTokenStandard => whole::<Option<TokenStandard>>(bytes),
            Field::OptionCollection => whole::<Option<Collection>>(bytes),
            Field::OptionUses => whole::<Option<Uses>>(bytes),
            Field::OptionCollectionDetails => whole::<Option<CollectionDetails>>(bytes),
            Field::OptionProgrammableConfig => whole::<Option<ProgrammableConfig>>(bytes),
        }
    }
}

/// The record as a `LazyAccount<T>` sees it: the account's data, and the
/// fields loaded so far (their bytes, or a new value's encoding).
struct Lazy<'a> {
    data: &'a [u8],
    loaded: [Option<Vec<u8>>; 16],
}

impl<'a> Lazy<'a> {
    fn new(data: &'a [u8]) -> Self {
        Self {
            data,
            loaded: Default::default(),
        }
    }

    /// Field `index`'s offset and size, from the data (the fields before it
    /// sized as they are stored).
    fn place(&self, index: usize) -> Result<(usize, usize), ProgramError> {
        let mut offset = DISCRIMINATOR_LEN;
        for field in &FIELDS[..index] {
            offset += field.size(from(self.data, offset)?)?;
        }
        let size = FIELDS[index].size(from(self.data, offset)?)?;
        Ok((offset, size))
    }

    /// `load_<field>`: the field's bytes, decoded once and kept.
    fn load(&mut self, index: usize) -> Result<Vec<u8>, ProgramError> {
        if let Some(bytes) = &self.loaded[index] {
            return Ok(bytes.clone());
        }
        let (offset, size) = self.place(index)?;
        let bytes = self.data.get(offset..offset + size).ok_or(ABORTS)?.to_vec();
        if !FIELDS[index].decodes(&bytes) {
            return Err(ProgramError::BorshIoError);
        }
        self.loaded[index] = Some(bytes.clone());
        Ok(bytes)
    }

    /// `load()` (every field, in order) and the record's encoding.
    fn encode(&mut self) -> Result<Vec<u8>, ProgramError> {
        let mut out = Vec::new();
        for index in 0..FIELDS.len() {
            out.extend(self.load(index)?);
        }
        Ok(out)
    }
}

/// What the Anchor 1.x `LazyAccount<T>` metadata program must do with
/// `input`.
pub fn expected(input: &Input) -> Result<Vec<u8>, ProgramError> {
    let (name, call) = before_the_record(input)?;
    if input.account_count < 2 {
        return Err(NOT_ENOUGH_KEYS);
    }
    if writes(name) && !input.writable {
        return Err(CONSTRAINT_MUT);
    }
    let mut record = Lazy::new(&input.data);
    if checks_authority(name) && record.load(UPDATE_AUTHORITY)? != input.owner_key {
        return Err(CONSTRAINT_HAS_ONE);
    }
    match call {
        Operation::Full => {
            record.load(PRIMARY_SALE)?;
            record.loaded[PRIMARY_SALE] = Some(vec![1]);
        }
        Operation::ReadCollection(key) => {
            let bytes = record.load(COLLECTION)?;
            return match Option::<Collection>::try_from_slice(&bytes).expect("decoded") {
                Some(c) if c.verified && c.key == key => Ok(input.data.clone()),
                _ => Err(ProgramError::InvalidArgument),
            };
        }
        Operation::VerifyCreator => {
            let bytes = record.load(CREATORS)?;
            let mut creators = Option::<Vec<Creator>>::try_from_slice(&bytes).expect("decoded");
            let found = creators
                .iter_mut()
                .flatten()
                .find(|c| c.address == input.owner_key)
                .ok_or(ProgramError::InvalidArgument)?;
            found.verified = true;
            record.loaded[CREATORS] = Some(borsh::to_vec(&creators).expect("encodes"));
        }
        Operation::ReadRoyalty(bps) => {
            let bytes = record.load(ROYALTY)?;
            return if bytes == bps.to_le_bytes() {
                Ok(input.data.clone())
            } else {
                Err(ProgramError::InvalidArgument)
            };
        }
        Operation::SetUri(uri) => {
            if record.load(IS_MUTABLE)? != [1] || uri.len() > MAX_URI {
                return Err(ProgramError::InvalidArgument);
            }
            let size = record.encode()?.len();
            let old = record.load(URI)?.len();
            let new = borsh::to_vec(&uri).expect("encodes");
            if DISCRIMINATOR_LEN + size - old + new.len() > input.data.len() {
                return Err(ProgramError::InvalidAccountData);
            }
            record.loaded[URI] = Some(new);
        }
    }
    let encoded = record.encode()?;
    let mut after = input.data.clone();
    after
        .get_mut(DISCRIMINATOR_LEN..DISCRIMINATOR_LEN + encoded.len())
        .ok_or(ProgramError::AccountDataTooSmall)?
        .copy_from_slice(&encoded);
    Ok(after)
}
