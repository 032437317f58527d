//! borsh's bytes walked by hand, in place: the raw baseline of the borsh
//! layout, with no crate. Each operation reads the key, then length
//! prefixes and option tags up to what it needs; every prefix is checked
//! against its bound and the account's end, every tag it passes against
//! its range. What it validates:
//! - `full`: the whole record (UTF-8 of every string, every bool and tag),
//!   then sets `primary_sale_happened`'s byte;
//! - `read_royalty`: the key and the three strings' lengths (not their
//!   UTF-8);
//! - `read_collection`, `verify_creator`: those, the creators' count, and
//!   the tags up to the collection, or the creators' addresses;
//! - `set_uri`: the lengths and tags of the whole record (to find its end;
//!   not the strings' UTF-8 or the bools it does not read), then moves
//!   what follows the uri and zeroes what a shorter uri frees.
#![no_std]

use core::ops::Range;

use common::{
    Address, ProgramError, ProgramResult,
    metadata::{
        Format, MAX_CREATORS, MAX_NAME, MAX_SYMBOL, MAX_URI, check_authority, check_new_uri,
        replace_borsh_string,
    },
};

const INVALID: ProgramError = ProgramError::InvalidAccountData;
/// The borsh tag of `Key::MetadataV1`.
const METADATA_V1: u8 = 4;
/// A creator: address, verified, share.
const CREATOR: usize = 34;

/// A position in the record's bytes; every step checks the account's end.
struct Walk<'a> {
    data: &'a [u8],
    at: usize,
}

impl<'a> Walk<'a> {
    /// After the key (which must be `MetadataV1`), the authority and mint.
    fn new(data: &'a [u8]) -> Result<Self, ProgramError> {
        match data.first() {
            Some(&METADATA_V1) if data.len() >= 65 => Ok(Self { data, at: 65 }),
            _ => Err(INVALID),
        }
    }

    fn take(&mut self, len: usize) -> Result<Range<usize>, ProgramError> {
        let range = self.at..self.at.checked_add(len).ok_or(INVALID)?;
        if range.end > self.data.len() {
            return Err(INVALID);
        }
        self.at = range.end;
        Ok(range)
    }

    fn byte(&mut self) -> Result<u8, ProgramError> {
        let at = self.take(1)?.start;
        Ok(self.data[at])
    }

    /// A tag or bool below `variants`.
    fn tag(&mut self, variants: u8) -> Result<u8, ProgramError> {
        match self.byte()? {
            tag if tag < variants => Ok(tag),
            _ => Err(INVALID),
        }
    }

    /// An `Option`'s tag: whether the value follows.
    fn some(&mut self) -> Result<bool, ProgramError> {
        Ok(self.tag(2)? == 1)
    }

    fn u32(&mut self) -> Result<usize, ProgramError> {
        let range = self.take(4)?;
        let bytes = self.data[range].try_into().map_err(|_| INVALID)?;
        Ok(u32::from_le_bytes(bytes) as usize)
    }

    /// A string of at most `max` bytes (its UTF-8 checked if `utf8`): the
    /// range of its length prefix and bytes.
    fn string(&mut self, max: usize, utf8: bool) -> Result<Range<usize>, ProgramError> {
        let start = self.at;
        let len = self.u32()?;
        if len > max {
            return Err(INVALID);
        }
        let bytes = self.take(len)?;
        if utf8 && core::str::from_utf8(&self.data[bytes.clone()]).is_err() {
            return Err(INVALID);
        }
        Ok(start..bytes.end)
    }

    /// Name, symbol and uri: the uri's range.
    fn strings(&mut self, utf8: bool) -> Result<Range<usize>, ProgramError> {
        self.string(MAX_NAME, utf8)?;
        self.string(MAX_SYMBOL, utf8)?;
        self.string(MAX_URI, utf8)
    }

    /// The creators (at most five; their bools checked if `bools`): their
    /// range, empty for `None`.
    fn creators(&mut self, bools: bool) -> Result<Range<usize>, ProgramError> {
        if !self.some()? {
            return Ok(self.at..self.at);
        }
        let count = self.u32()?;
        if count > MAX_CREATORS {
            return Err(INVALID);
        }
        let range = self.take(count * CREATOR)?;
        let valid_bools = |c: &[u8]| c[32] < 2;
        if bools && !self.data[range.clone()].chunks(CREATOR).all(valid_bools) {
            return Err(INVALID);
        }
        Ok(range)
    }

    /// `primary_sale_happened` and `is_mutable`: the latter, and the
    /// former's offset.
    fn flags(&mut self) -> Result<(usize, bool), ProgramError> {
        let primary_sale = self.at;
        self.tag(2)?;
        Ok((primary_sale, self.tag(2)? == 1))
    }

    /// `edition_nonce` and `token_standard`.
    fn edition(&mut self) -> Result<(), ProgramError> {
        if self.some()? {
            self.take(1)?;
        }
        if self.some()? {
            self.tag(6)?;
        }
        Ok(())
    }

    /// The collection, if any: `(verified, key)` range.
    fn collection(&mut self) -> Result<Option<Range<usize>>, ProgramError> {
        if !self.some()? {
            return Ok(None);
        }
        let start = self.at;
        self.tag(2)?;
        self.take(32)?;
        Ok(Some(start..self.at))
    }

    /// `uses`, `collection_details` and `programmable_config`: the end of
    /// the record.
    fn tail(&mut self) -> Result<usize, ProgramError> {
        if self.some()? {
            self.tag(3)?;
            self.take(16)?;
        }
        if self.some()? {
            self.tag(2)?;
            self.take(8)?;
        }
        if self.some()? {
            self.tag(1)?;
            if self.some()? {
                self.take(32)?;
            }
        }
        Ok(self.at)
    }
}

/// The authority, read where it sits.
fn authority(data: &[u8]) -> &[u8; 32] {
    data[1..33].try_into().expect("Walk::new checked 65 bytes")
}

struct BorshWalk;

impl Format for BorshWalk {
    fn full(data: &mut [u8], signer: &Address) -> ProgramResult {
        let mut walk = Walk::new(data)?;
        walk.strings(true)?;
        walk.take(2)?;
        walk.creators(true)?;
        let (primary_sale, _) = walk.flags()?;
        walk.edition()?;
        walk.collection()?;
        walk.tail()?;
        check_authority(authority(data), signer)?;
        data[primary_sale] = 1;
        Ok(())
    }

    fn read_collection(data: &[u8], key: &[u8; 32]) -> ProgramResult {
        let mut walk = Walk::new(data)?;
        walk.strings(false)?;
        walk.take(2)?;
        walk.creators(false)?;
        walk.take(2)?;
        walk.edition()?;
        match walk.collection()? {
            Some(at) if data[at.start] == 1 && &data[at.start + 1..at.end] == key => Ok(()),
            _ => Err(ProgramError::InvalidArgument),
        }
    }

    fn verify_creator(data: &mut [u8], creator: &Address) -> ProgramResult {
        let mut walk = Walk::new(data)?;
        walk.strings(false)?;
        walk.take(2)?;
        let creators = walk.creators(false)?;
        let found = data[creators.clone()]
            .chunks(CREATOR)
            .position(|c| &c[..32] == creator.as_array())
            .ok_or(ProgramError::InvalidArgument)?;
        data[creators.start + found * CREATOR + 32] = 1;
        Ok(())
    }

    fn read_royalty(data: &[u8], bps: u16) -> ProgramResult {
        let mut walk = Walk::new(data)?;
        walk.strings(false)?;
        let at = walk.take(2)?.start;
        if u16::from_le_bytes([data[at], data[at + 1]]) == bps {
            Ok(())
        } else {
            Err(ProgramError::InvalidArgument)
        }
    }

    fn set_uri(data: &mut [u8], signer: &Address, uri: &[u8]) -> ProgramResult {
        let mut walk = Walk::new(data)?;
        let old = walk.strings(false)?;
        walk.take(2)?;
        walk.creators(false)?;
        let (_, is_mutable) = walk.flags()?;
        walk.edition()?;
        walk.collection()?;
        let end = walk.tail()?;
        check_authority(authority(data), signer)?;
        let uri = check_new_uri(is_mutable, uri)?.as_bytes();
        replace_borsh_string(data, old.start, old.len() - 4, end, uri)
    }
}

common::metadata_program!(BorshWalk);
