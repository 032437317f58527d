//! Each metadata format's encoder and decoder for the host: the harness
//! computes every expected account from these, never from a program. An
//! account holds the encoding at its start and zeros after it, and is
//! allocated at the format's encoding of [`Metadata::largest`].

use alloc::vec::Vec;

use super::{ARCHIVE_AT, FIXED_CAPACITY_LEN, FixedCapacity, FixedFirst, Metadata, WINCODE_BORSH};
use crate::BINCODE;

/// A format's host-side encode and decode of the logical [`Metadata`].
#[derive(Clone, Copy, Debug)]
pub struct HostFormat {
    /// The program folder's name: `programs/metadata/<name>`.
    pub name: &'static str,
    pub encode: fn(&Metadata) -> Vec<u8>,
    /// The record encoded at the start of `data` (what follows is not
    /// read) and the length of its encoding, or `None` where it does not
    /// decode to a valid record.
    pub decode: fn(&[u8]) -> Option<(Metadata, usize)>,
}

impl HostFormat {
    /// The account's length: the format's largest encoding.
    pub fn account_len(&self) -> usize {
        (self.encode)(&Metadata::largest()).len()
    }

    /// The account holding `metadata`: its encoding, then zeros.
    pub fn account(&self, metadata: &Metadata) -> Vec<u8> {
        let mut data = (self.encode)(metadata);
        data.resize(self.account_len(), 0);
        data
    }
}

fn valid((metadata, len): (Metadata, usize)) -> Option<(Metadata, usize)> {
    metadata.is_valid().then_some((metadata, len))
}

fn borsh_encode(metadata: &Metadata) -> Vec<u8> {
    borsh::to_vec(metadata).expect("a record encodes")
}

fn borsh_decode(data: &[u8]) -> Option<(Metadata, usize)> {
    let mut rest = data;
    let metadata = borsh::BorshDeserialize::deserialize(&mut rest).ok()?;
    valid((metadata, data.len() - rest.len()))
}

/// The rkyv program's account: the archive's length (`u64` LE), then the
/// archive.
fn rkyv_encode(metadata: &Metadata) -> Vec<u8> {
    let archive = rkyv::to_bytes::<rkyv::rancor::Error>(metadata).expect("a record archives");
    [&(archive.len() as u64).to_le_bytes()[..], &archive].concat()
}

/// Only the canonical archive (what `rkyv_encode` writes): the checked
/// access accepts others (any bytes in padding, say), which the oracle's
/// re-encoding would not reproduce.
fn rkyv_decode(data: &[u8]) -> Option<(Metadata, usize)> {
    let len = usize::try_from(u64::from_le_bytes(*data.first_chunk()?)).ok()?;
    let end = ARCHIVE_AT.checked_add(len)?;
    let mut archive = rkyv::util::AlignedVec::<16>::new();
    archive.extend_from_slice(data.get(ARCHIVE_AT..end)?);
    let metadata = rkyv::from_bytes::<Metadata, rkyv::rancor::Error>(&archive).ok()?;
    let canonical = rkyv_encode(&metadata) == data[..end];
    canonical.then_some(())?;
    valid((metadata, end))
}

/// Only an account whose unused bytes are zero (what the encoder writes):
/// the programs ignore them, the oracle's re-encoding zeroes them.
fn fixed_capacity_decode(data: &[u8]) -> Option<(Metadata, usize)> {
    let bytes = data.get(..FIXED_CAPACITY_LEN)?;
    let record: FixedCapacity = bytemuck::pod_read_unaligned(bytes);
    let metadata = record.to_metadata()?;
    let canonical = bytemuck::bytes_of(&FixedCapacity::new(&metadata)) == bytes;
    canonical.then_some(())?;
    valid((metadata, FIXED_CAPACITY_LEN))
}

/// Every format the host knows so far, by program folder name.
pub const HOST_FORMATS: &[HostFormat] = &[
    HostFormat {
        name: "borsh",
        encode: borsh_encode,
        decode: borsh_decode,
    },
    // The same bytes as borsh, walked by hand on-chain.
    HostFormat {
        name: "borsh_walk",
        encode: borsh_encode,
        decode: borsh_decode,
    },
    // The same bytes as borsh, read through light-zero-copy's views.
    HostFormat {
        name: "light_zero_copy",
        encode: borsh_encode,
        decode: borsh_decode,
    },
    // borsh's bytes, written and read by wincode (a test holds them equal).
    HostFormat {
        name: "wincode",
        encode: |m| wincode::config::serialize(m, WINCODE_BORSH).expect("a record encodes"),
        decode: |b| {
            let mut rest = b;
            let metadata = wincode::config::deserialize_from(&mut rest, WINCODE_BORSH).ok()?;
            valid((metadata, b.len() - rest.len()))
        },
    },
    // The same record with its fixed-size fields first: borsh's bytes of it
    // (zeropod's own encoder refuses a record past its bounds, which the
    // tests encode; a test holds the two equal within them), read back
    // through zeropod's view.
    HostFormat {
        name: "zeropod",
        encode: |m| borsh::to_vec(&FixedFirst::from(m.clone())).expect("a record encodes"),
        decode: |b| {
            use zeropod::Layout;
            let len = FixedFirst::view(b).ok()?.size();
            let record: FixedFirst = zeropod::from_slice(&b[..len]).ok()?;
            valid((record.into(), len))
        },
    },
    HostFormat {
        name: "bincode",
        encode: |m| bincode::encode_to_vec(m, BINCODE).expect("a record encodes"),
        decode: |b| bincode::decode_from_slice(b, BINCODE).ok().and_then(valid),
    },
    HostFormat {
        name: "postcard",
        encode: |m| postcard::to_allocvec(m).expect("a record encodes"),
        decode: |b| {
            postcard::take_from_bytes::<Metadata>(b)
                .ok()
                .and_then(|(m, rest)| valid((m, b.len() - rest.len())))
        },
    },
    HostFormat {
        name: "rkyv",
        encode: rkyv_encode,
        decode: rkyv_decode,
    },
    // The fixed-capacity redesign (`FixedCapacity`).
    HostFormat {
        name: "bytemuck",
        encode: |m| bytemuck::bytes_of(&FixedCapacity::new(m)).to_vec(),
        decode: fixed_capacity_decode,
    },
];

/// The host codec of the format a program folder is named after.
pub fn host_format(name: &str) -> Option<&'static HostFormat> {
    HOST_FORMATS.iter().find(|f| f.name == name)
}
