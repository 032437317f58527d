//! Each message format's encoder and decoder for the host: the harness
//! computes every expected account from these, never from a program. A
//! format joins the message family with its program folder and an entry
//! here.

use alloc::vec::Vec;

use super::{Message, ShortMessage, offset_table};
use crate::BINCODE;

/// A format's host-side encode and decode of the logical [`Message`].
#[derive(Clone, Copy, Debug)]
pub struct HostFormat {
    /// The program folder's name: `programs/message/<name>`.
    pub name: &'static str,
    pub encode: fn(&Message) -> Vec<u8>,
    /// `None` for anything that is not exactly one valid encoding.
    pub decode: fn(&[u8]) -> Option<Message>,
}

fn bincode_decode(bytes: &[u8]) -> Option<Message> {
    match bincode::decode_from_slice(bytes, BINCODE) {
        Ok((message, read)) if read == bytes.len() => Some(message),
        _ => None,
    }
}

fn short_encode(message: &Message) -> Vec<u8> {
    wincode::serialize(&ShortMessage::from(message)).expect("a message encodes")
}

fn short_decode(bytes: &[u8]) -> Option<Message> {
    let short: ShortMessage = wincode::deserialize_exact(bytes).ok()?;
    Some(Message::from(&short))
}

/// postcard's decode refuses trailing bytes only through `take_from_bytes`.
fn postcard_decode(bytes: &[u8]) -> Option<Message> {
    match postcard::take_from_bytes(bytes) {
        Ok((message, [])) => Some(message),
        _ => None,
    }
}

/// rkyv checks the root's alignment: copy into an aligned buffer first, as
/// a client holding bytes from the RPC must.
fn rkyv_decode(bytes: &[u8]) -> Option<Message> {
    let mut aligned = rkyv::util::AlignedVec::<16>::with_capacity(bytes.len());
    aligned.extend_from_slice(bytes);
    rkyv::from_bytes::<Message, rkyv::rancor::Failure>(&aligned).ok()
}

/// Every format the host knows, by program folder name.
pub const HOST_FORMATS: &[HostFormat] = &[
    HostFormat {
        name: "borsh",
        encode: |m| borsh::to_vec(m).expect("a message encodes"),
        decode: |b| borsh::from_slice(b).ok(),
    },
    HostFormat {
        name: "bincode",
        encode: |m| bincode::encode_to_vec(m, BINCODE).expect("a message encodes"),
        decode: bincode_decode,
    },
    HostFormat {
        name: "wincode",
        encode: |m| wincode::serialize(m).expect("a message encodes"),
        decode: |b| wincode::deserialize_exact(b).ok(),
    },
    HostFormat {
        name: "wincode_short",
        encode: short_encode,
        decode: short_decode,
    },
    // The same bytes as wincode_short, parsed by hand on-chain.
    HostFormat {
        name: "compact_u16",
        encode: short_encode,
        decode: short_decode,
    },
    // The same bytes as borsh, read in place through light-zero-copy
    // on-chain.
    HostFormat {
        name: "light_zero_copy",
        encode: |m| borsh::to_vec(m).expect("a message encodes"),
        decode: |b| borsh::from_slice(b).ok(),
    },
    HostFormat {
        name: "postcard",
        encode: |m| postcard::to_allocvec(m).expect("a message encodes"),
        decode: postcard_decode,
    },
    HostFormat {
        name: "rkyv",
        encode: |m| {
            rkyv::to_bytes::<rkyv::rancor::Failure>(m)
                .expect("a message encodes")
                .to_vec()
        },
        decode: rkyv_decode,
    },
    HostFormat {
        name: "offset_table",
        encode: offset_table::encode,
        decode: offset_table::decode,
    },
    // The same layout as offset_table, read through zerocopy on-chain.
    HostFormat {
        name: "zerocopy",
        encode: offset_table::encode,
        decode: offset_table::decode,
    },
];

/// The host codec of the format a program folder is named after.
pub fn host_format(name: &str) -> Option<&'static HostFormat> {
    HOST_FORMATS.iter().find(|f| f.name == name)
}
