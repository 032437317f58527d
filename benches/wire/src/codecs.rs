//! What travels between the RPC and a client: the account data as the RPC
//! encodes it (`base64`, `base64+zstd`), and two other codecs for
//! comparison (Snappy, LZ4). Every decode returns an error on bad input,
//! never panics.

use std::io::{Read, Write};

use base64::{Engine, prelude::BASE64_STANDARD};

/// A client-side decode that failed, and at which step.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum WireError {
    #[error("base64: {0}")]
    Base64(String),
    #[error("zstd: {0}")]
    Zstd(String),
    #[error("{0}: not a valid encoding")]
    Format(&'static str),
}

/// `base64`: the standard alphabet, padded.
pub fn base64(data: &[u8]) -> String {
    BASE64_STANDARD.encode(data)
}

/// zstd as agave's account encoder runs it: one frame through the stream
/// encoder at level 0 (zstd's default, level 3).
pub fn zstd(data: &[u8]) -> Vec<u8> {
    let mut encoder = zstd::stream::write::Encoder::new(Vec::new(), 0).expect("zstd encoder");
    encoder.write_all(data).expect("writing to a Vec");
    encoder.finish().expect("finishing a zstd frame")
}

/// `base64+zstd` as the RPC sends it: zstd (as [`zstd`]), then base64.
pub fn base64_zstd(data: &[u8]) -> String {
    base64(&zstd(data))
}

/// The client's `base64` decode.
pub fn decode_base64(text: &str) -> Result<Vec<u8>, WireError> {
    BASE64_STANDARD
        .decode(text)
        .map_err(|e| WireError::Base64(e.to_string()))
}

/// The client's zstd step: the stream decoder read to the end, as agave's
/// client types decode `base64+zstd`.
pub fn unzstd(compressed: &[u8]) -> Result<Vec<u8>, WireError> {
    let mut data = Vec::new();
    zstd::stream::read::Decoder::new(compressed)
        .and_then(|mut reader| reader.read_to_end(&mut data))
        .map_err(|e| WireError::Zstd(e.to_string()))?;
    Ok(data)
}

/// The client's `base64+zstd` decode: base64, then zstd.
pub fn decode_base64_zstd(text: &str) -> Result<Vec<u8>, WireError> {
    unzstd(&decode_base64(text)?)
}

/// Snappy, raw format (no framing).
pub fn snappy(data: &[u8]) -> Vec<u8> {
    snap::raw::Encoder::new()
        .compress_vec(data)
        .expect("snappy compresses any input")
}

/// LZ4, block format.
pub fn lz4(data: &[u8]) -> Vec<u8> {
    lz4_flex::block::compress(data)
}
