//! Each metadata format's encoder and decoder for the host: the harness
//! computes every expected account from these, never from a program. An
//! account holds the encoding at its start and zeros after it, and is
//! allocated at the format's encoding of [`Metadata::largest`].

use alloc::vec::Vec;

use super::Metadata;
use crate::BINCODE;

/// A format's host-side encode and decode of the logical [`Metadata`].
#[derive(Clone, Copy, Debug)]
pub struct HostFormat {
    /// The program folder's name: `programs/metadata/<name>`.
    pub name: &'static str,
    pub encode: fn(&Metadata) -> Vec<u8>,
    /// The record encoded at the start of `data` (what follows is not
    /// read), or `None` where it does not decode to a valid record.
    pub decode: fn(&[u8]) -> Option<Metadata>,
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

fn valid(metadata: Metadata) -> Option<Metadata> {
    metadata.is_valid().then_some(metadata)
}

fn borsh_decode(data: &[u8]) -> Option<Metadata> {
    borsh::BorshDeserialize::deserialize(&mut &data[..])
        .ok()
        .and_then(valid)
}

/// Every format the host knows so far, by program folder name.
pub const HOST_FORMATS: &[HostFormat] = &[
    HostFormat {
        name: "borsh",
        encode: |m| borsh::to_vec(m).expect("a record encodes"),
        decode: borsh_decode,
    },
    // The same bytes as borsh, walked by hand on-chain.
    HostFormat {
        name: "borsh_walk",
        encode: |m| borsh::to_vec(m).expect("a record encodes"),
        decode: borsh_decode,
    },
    HostFormat {
        name: "bincode",
        encode: |m| bincode::encode_to_vec(m, BINCODE).expect("a record encodes"),
        decode: |b| {
            bincode::decode_from_slice(b, BINCODE)
                .ok()
                .and_then(|(m, _)| valid(m))
        },
    },
    HostFormat {
        name: "postcard",
        encode: |m| postcard::to_allocvec(m).expect("a record encodes"),
        decode: |b| {
            postcard::take_from_bytes(b)
                .ok()
                .and_then(|(m, _)| valid(m))
        },
    },
];

/// The host codec of the format a program folder is named after.
pub fn host_format(name: &str) -> Option<&'static HostFormat> {
    HOST_FORMATS.iter().find(|f| f.name == name)
}
