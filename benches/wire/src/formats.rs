//! Every format of both families as a client meets it: the bytes of each
//! instance, the format's own decode into the logical value, and its
//! zero-copy access where it has one. The token family's fixed-width crates
//! all encode `Account` to the same 160 bytes, the varint ones to their own
//! (benches' tests hold them to the contract's encodings), sent as the whole
//! account, as the RPC does; the message family's formats each have their
//! own bytes; the metadata family's formats each send the whole account
//! (the record, then the zeros up to the format's largest encoding).

use std::{hint::black_box, sync::Arc};

use benches::{Family, Workspace, message, metadata, token::Encoding};
use common::{
    message::{ArchivedMessage, Message, MessageRef, host_format, offset_table},
    metadata::{
        ARCHIVE_AT, ArchivedMetadata, FIXED_CAPACITY_LEN, FixedCapacity, FixedFirst, LightHead,
        LightTail, Metadata,
    },
    token::{Account, ArchivedAccount},
};
use light_zero_copy::traits::ZeroCopyAt;
use rkyv::rancor::Failure;
use zerocopy::FromBytes;

use crate::codecs::WireError;

/// A client-side decode: `Ok` once the value is decoded (and discarded).
pub type Decode = Arc<dyn Fn(&[u8]) -> Result<(), WireError> + Send + Sync>;

/// One format of one family.
#[derive(Clone)]
pub struct WireFormat {
    pub family: Family,
    /// The program folder's name.
    pub name: String,
    /// How a token program stores `Account` (`raw` for the message family).
    pub encoding: Encoding,
    /// Decode into the logical value (an owned `Account` or `Message`).
    pub decode: Option<Decode>,
    /// Read in place, without copying the variable parts.
    pub access: Option<Decode>,
}

/// One instance of a format: what it encodes to.
#[derive(Clone)]
pub struct WireInstance {
    pub format: WireFormat,
    /// Nominal size: the account's length for the token family's `Account`
    /// (160, or a varint encoding's largest), the instance's size for the
    /// message family, the account's length for the metadata family.
    pub size: usize,
    /// The metadata family's instance (`minimal`, `typical`, `full`).
    pub instance: Option<&'static str>,
    pub bytes: Vec<u8>,
}

fn token_decoders(name: &str) -> (Option<Decode>, Option<Decode>) {
    /// `Ok` once the account is decoded or borrowed, as any crate's type.
    fn found<T>(value: Option<T>) -> Result<(), WireError> {
        black_box(value)
            .map(drop)
            .ok_or(WireError::Format("Account"))
    }
    fn owned(value: Option<Account>) -> Result<(), WireError> {
        found(value)
    }
    let pair = |decode: Decode, access: Option<Decode>| (Some(decode), access);
    match name {
        "borsh" => pair(Arc::new(|b| owned(borsh::from_slice(b).ok())), None),
        "bincode" => pair(
            Arc::new(|b| {
                let config = bincode::config::standard().with_fixed_int_encoding();
                owned(bincode::decode_from_slice(b, config).ok().map(|(a, _)| a))
            }),
            None,
        ),
        "wincode" => pair(
            Arc::new(|b| owned(wincode::deserialize(b).ok())),
            Some(Arc::new(|b| {
                found(<Account as wincode::ZeroCopy>::from_bytes(b).ok())
            })),
        ),
        "bytemuck" => pair(
            Arc::new(|b| owned(bytemuck::try_pod_read_unaligned(b).ok())),
            Some(Arc::new(|b| {
                found(bytemuck::try_from_bytes::<Account>(b).ok())
            })),
        ),
        "zerocopy" => pair(
            Arc::new(|b| owned(Account::read_from_bytes(b).ok())),
            Some(Arc::new(|b| found(Account::ref_from_bytes(b).ok()))),
        ),
        "postcard" => pair(Arc::new(|b| owned(postcard::from_bytes(b).ok())), None),
        "bincode_varint" => pair(
            Arc::new(|b| {
                let config = bincode::config::standard();
                owned(bincode::decode_from_slice(b, config).ok().map(|(a, _)| a))
            }),
            None,
        ),
        "rkyv" => pair(
            Arc::new(|b| owned(rkyv::from_bytes::<Account, rkyv::rancor::Failure>(b).ok())),
            Some(Arc::new(|b| {
                found(rkyv::access::<ArchivedAccount, rkyv::rancor::Failure>(b).ok())
            })),
        ),
        "light_zero_copy" => (
            None,
            Some(Arc::new(|b| found(Account::zero_copy_at(b).ok()))),
        ),
        _ => (None, None),
    }
}

/// The offset-table layout read in place on the client, through zerocopy:
/// header, keys, entries, and every instruction's range checked.
fn offset_table_access(bytes: &[u8]) -> Result<(), WireError> {
    fn invalid<E>(_: E) -> WireError {
        WireError::Format("offset table")
    }
    let (header, rest) = offset_table::Header::ref_from_prefix(bytes).map_err(invalid)?;
    let (keys, rest) = <[[u8; 32]]>::ref_from_prefix_with_elems(rest, header.key_count as usize)
        .map_err(invalid)?;
    let (entries, variable) = <[offset_table::Entry]>::ref_from_prefix_with_elems(
        rest,
        header.instruction_count as usize,
    )
    .map_err(invalid)?;
    let parts = offset_table::Parts {
        header,
        keys,
        entries,
        bytes: variable,
    };
    parts.validate().map_err(invalid)?;
    black_box(&parts);
    Ok(())
}

fn message_decoders(name: &str) -> (Option<Decode>, Option<Decode>) {
    let access: Option<Decode> = match name {
        "wincode" => Some(Arc::new(|b| {
            let message: MessageRef = wincode::deserialize_exact(b)
                .map_err(|_| WireError::Format("wincode MessageRef"))?;
            black_box(message);
            Ok(())
        })),
        "offset_table" | "zerocopy" => Some(Arc::new(offset_table_access)),
        // Checked, as on-chain; the base64 decoder's buffer is the heap's,
        // aligned enough for the archive's root.
        "rkyv" => Some(Arc::new(|b| {
            let archived = rkyv::access::<ArchivedMessage, rkyv::rancor::Failure>(b)
                .map_err(|_| WireError::Format("rkyv ArchivedMessage"))?;
            black_box(archived);
            Ok(())
        })),
        "light_zero_copy" => Some(Arc::new(|b| match Message::zero_copy_at(b) {
            Ok((view, [])) => {
                black_box(view);
                Ok(())
            }
            _ => Err(WireError::Format("light-zero-copy ZMessage")),
        })),
        _ => None,
    };
    let decode = host_format(name).map(|codec| -> Decode {
        Arc::new(move |bytes| {
            black_box((codec.decode)(bytes))
                .map(drop)
                .ok_or(WireError::Format(codec.name))
        })
    });
    (decode, access)
}

/// `Ok` once `value` is found: decoded, or borrowed in place.
fn found<T>(value: Option<T>, what: &'static str) -> Result<(), WireError> {
    black_box(value).map(drop).ok_or(WireError::Format(what))
}

/// The rkyv program's archive, after its length.
fn rkyv_archive(bytes: &[u8]) -> Option<&[u8]> {
    let len = usize::try_from(u64::from_le_bytes(*bytes.first_chunk()?)).ok()?;
    bytes.get(ARCHIVE_AT..ARCHIVE_AT.checked_add(len)?)
}

/// The client's decode of a metadata account into `Metadata` (the host
/// codec's, but for the two whose host decoder also checks the account is
/// canonical, which a client need not), and its in-place access where the
/// format has one.
fn metadata_decoders(name: &str) -> (Option<Decode>, Option<Decode>) {
    let access: Option<Decode> = match name {
        "zeropod" => Some(Arc::new(|b| {
            use zeropod::Layout;
            found(FixedFirst::view(b).ok(), "zeropod view")
        })),
        "light_zero_copy" => Some(Arc::new(|b| {
            let views = LightHead::zero_copy_at(b)
                .ok()
                .and_then(|(head, rest)| Some((head, LightTail::zero_copy_at(rest).ok()?)));
            found(views, "light-zero-copy views")
        })),
        // Checked, as on-chain.
        "rkyv" => Some(Arc::new(|b| {
            let archived =
                rkyv_archive(b).and_then(|a| rkyv::access::<ArchivedMetadata, Failure>(a).ok());
            found(archived, "rkyv ArchivedMetadata")
        })),
        // The cast, as on-chain: it checks the length only.
        "bytemuck" => Some(Arc::new(|b| {
            let record = b
                .get(..FIXED_CAPACITY_LEN)
                .and_then(|b| bytemuck::try_from_bytes::<FixedCapacity>(b).ok());
            found(record, "FixedCapacity")
        })),
        _ => None,
    };
    let decode: Option<Decode> = match name {
        "rkyv" => Some(Arc::new(|b| {
            let record =
                rkyv_archive(b).and_then(|a| rkyv::from_bytes::<Metadata, Failure>(a).ok());
            found(record, "rkyv Metadata")
        })),
        "bytemuck" => Some(Arc::new(|b| {
            let record = b
                .get(..FIXED_CAPACITY_LEN)
                .and_then(|b| bytemuck::try_pod_read_unaligned::<FixedCapacity>(b).ok())
                .and_then(|r| r.to_metadata());
            found(record, "FixedCapacity")
        })),
        _ => common::metadata::host_format(name).map(|codec| -> Decode {
            Arc::new(move |bytes| found((codec.decode)(bytes), codec.name))
        }),
    };
    (decode, access)
}

/// Every program folder of every family, as a wire format.
pub fn formats(workspace: &Workspace) -> Vec<WireFormat> {
    let mut formats: Vec<WireFormat> = Vec::new();
    for program in workspace.programs().unwrap_or_default() {
        if formats
            .iter()
            .any(|f| f.family == program.family && f.name == program.name)
        {
            continue;
        }
        let (decode, access) = match program.family {
            Family::Token => token_decoders(&program.name),
            Family::Message => message_decoders(&program.name),
            Family::Metadata => metadata_decoders(&program.name),
        };
        formats.push(WireFormat {
            family: program.family,
            name: program.name,
            encoding: program.encoding,
            decode,
            access,
        });
    }
    formats
}

/// Every instance of every format: the token family's fixture `Account`,
/// each message instance in each format with a host codec, and each
/// metadata instance's account in each metadata format.
pub fn instances(formats: &[WireFormat]) -> Vec<WireInstance> {
    let mut instances = Vec::new();
    for format in formats {
        match format.family {
            Family::Token => instances.push(WireInstance {
                format: format.clone(),
                size: format.encoding.account_len(),
                instance: None,
                bytes: format.encoding.fixture(),
            }),
            Family::Message => {
                let Some(codec) = host_format(&format.name) else {
                    continue;
                };
                for size in message::SIZES {
                    instances.push(WireInstance {
                        format: format.clone(),
                        size,
                        instance: None,
                        bytes: (codec.encode)(&message::instance(size)),
                    });
                }
            }
            Family::Metadata => {
                let Some(codec) = common::metadata::host_format(&format.name) else {
                    continue;
                };
                for name in metadata::INSTANCES {
                    let bytes = codec.account(&metadata::instance(name));
                    instances.push(WireInstance {
                        format: format.clone(),
                        size: bytes.len(),
                        instance: Some(name),
                        bytes,
                    });
                }
            }
        }
    }
    instances
}
