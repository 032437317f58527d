//! Every format's bytes round-trip through the RPC's encodings and the
//! format's host decode; bad input is an error from the client's decode
//! path, never a panic.

use std::panic::{AssertUnwindSafe, catch_unwind};

use base64::{Engine, prelude::BASE64_STANDARD};
use benches::{Family, Workspace, message};
use common::message::HOST_FORMATS;
use wire::{
    codecs::{self, WireError},
    formats::{WireInstance, formats, instances},
};

fn all() -> Vec<WireInstance> {
    instances(&formats(&Workspace::current()))
}

#[test]
fn every_message_format_round_trips_every_instance() {
    for format in HOST_FORMATS {
        for size in message::SIZES {
            let value = message::instance(size);
            let bytes = (format.encode)(&value);
            assert_eq!(
                (format.decode)(&bytes),
                Some(value),
                "{} at {size}",
                format.name
            );
        }
    }
}

#[test]
fn every_decoder_accepts_every_instance() {
    let instances = all();
    assert_eq!(
        instances
            .iter()
            .filter(|i| i.format.family == Family::Message)
            .count(),
        HOST_FORMATS.len() * message::SIZES.len()
    );
    for i in &instances {
        for (what, decode) in [("decode", &i.format.decode), ("access", &i.format.access)] {
            if let Some(decode) = decode {
                assert_eq!(
                    decode(&i.bytes),
                    Ok(()),
                    "{} {what} at {}",
                    i.format.name,
                    i.size
                );
            }
        }
    }
}

/// The RPC's `base64+zstd` is one zstd frame, base64-encoded; agave's
/// client path (base64, then the zstd stream decoder) gets the bytes back,
/// and so does zstd's one-shot decoder.
#[test]
fn base64_zstd_round_trips_as_agave_decodes_it() {
    for i in all() {
        let text = codecs::base64_zstd(&i.bytes);
        assert_eq!(
            codecs::decode_base64_zstd(&text).as_deref(),
            Ok(&i.bytes[..])
        );
        let compressed = BASE64_STANDARD.decode(&text).unwrap();
        assert_eq!(
            zstd::zstd_safe::find_frame_compressed_size(&compressed),
            Ok(compressed.len()),
            "one frame"
        );
        assert_eq!(zstd::decode_all(&compressed[..]).unwrap(), i.bytes);
        assert_eq!(
            codecs::decode_base64(&codecs::base64(&i.bytes)).unwrap(),
            i.bytes
        );
    }
}

/// The whole client path: transport decode, then the format's decode.
fn client(i: &WireInstance, text: &str, zstd: bool) -> Result<(), WireError> {
    let bytes = if zstd {
        codecs::decode_base64_zstd(text)?
    } else {
        codecs::decode_base64(text)?
    };
    for decode in [&i.format.decode, &i.format.access].into_iter().flatten() {
        decode(&bytes)?;
    }
    Ok(())
}

#[test]
fn corrupt_or_truncated_input_is_an_error_never_a_panic() {
    for i in all() {
        let name = format!("{} {} at {}", i.format.family.name(), i.format.name, i.size);
        let plain = codecs::base64(&i.bytes);
        let packed = codecs::base64_zstd(&i.bytes);
        let run = |text: &str, zstd: bool| {
            catch_unwind(AssertUnwindSafe(|| client(&i, text, zstd)))
                .unwrap_or_else(|_| panic!("{name}: the client decode panicked"))
        };
        // Corrupt base64: a character outside the alphabet, a cut text.
        for (text, zstd) in [(&plain, false), (&packed, true)] {
            let mut bad = text.clone();
            bad.replace_range(1..2, "!");
            assert!(
                matches!(run(&bad, zstd), Err(WireError::Base64(_))),
                "{name}"
            );
        }
        assert!(
            matches!(
                run(&plain[..plain.len() - 1], false),
                Err(WireError::Base64(_))
            ),
            "{name}"
        );
        // A cut zstd frame.
        let compressed = codecs::zstd(&i.bytes);
        let cut = codecs::base64(&compressed[..compressed.len() - 1]);
        assert!(matches!(run(&cut, true), Err(WireError::Zstd(_))), "{name}");
        // Flipped bits in the zstd frame: an error at some step, or bytes
        // the format accepts; never a panic.
        for at in (0..compressed.len()).step_by(3) {
            let mut flipped = compressed.clone();
            flipped[at] ^= 0x10;
            let _ = run(&codecs::base64(&flipped), true);
        }
        // The encoding cut at every length, or with flipped bits: the
        // format's decoders refuse every cut into the encoding (the
        // encodings are exact; a varint or metadata account's zero padding
        // after its encoding is not part of it).
        if i.format.decode.is_none() && i.format.access.is_none() {
            continue;
        }
        let encoded_len = match i.format.family {
            Family::Token => i.format.encoding.fixture_encoded_len(),
            Family::Message => i.bytes.len(),
            Family::Metadata => {
                let codec = common::metadata::host_format(&i.format.name).unwrap();
                (codec.decode)(&i.bytes).unwrap().1
            }
        };
        for len in 0..encoded_len {
            let text = codecs::base64(&i.bytes[..len]);
            assert!(
                matches!(run(&text, false), Err(WireError::Format(_))),
                "{name}: cut at {len}"
            );
        }
        for at in 0..i.bytes.len() {
            let mut flipped = i.bytes.clone();
            flipped[at] ^= 0x80;
            let _ = run(&codecs::base64(&flipped), false);
        }
    }
}
