//! The decoding oracle: a value read back from borsh's bytes or a
//! zero-copy account's memory, refused where a careful decoder refuses it.
//! Written from the model, not generated with the programs, so a generator
//! bug cannot make both sides agree.

use super::{entries::normalize_entries, types::Value};
use crate::{
    layout::struct_layout,
    model::{Account, Count, Struct, Ty},
};

/// Where decoding stopped, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub at: usize,
    pub what: String,
}

/// The decoding of a `ty` at `at` in `data` (borsh's, or what a Codama
/// IDL describes): the value and where it ends, or the byte where it
/// stopped.
pub fn decode(ty: &Ty, data: &[u8], at: usize) -> Result<(Value, usize), DecodeError> {
    let fail = |at: usize, what: &str| DecodeError {
        at,
        what: what.into(),
    };
    let bytes = |at: usize, len: usize| {
        at.checked_add(len)
            .and_then(|end| data.get(at..end))
            .ok_or_else(|| {
                fail(
                    at,
                    &format!("{len} bytes past the data's end ({})", data.len()),
                )
            })
    };
    let count = |at: usize| -> Result<(usize, usize), DecodeError> {
        let raw = bytes(at, 4)?;
        Ok((
            u32::from_le_bytes(raw.try_into().expect("4 bytes")) as usize,
            at + 4,
        ))
    };
    match ty {
        Ty::Bool => match bytes(at, 1)?[0] {
            0 => Ok((Value::Bool(false), at + 1)),
            1 => Ok((Value::Bool(true), at + 1)),
            other => Err(fail(at, &format!("a bool that is {other}"))),
        },
        Ty::Int { bytes: n, .. } => {
            let mut wide = [0u8; 16];
            wide[..*n as usize].copy_from_slice(bytes(at, *n as usize)?);
            Ok((Value::Int(u128::from_le_bytes(wide)), at + *n as usize))
        }
        Ty::Length {
            bytes: n, capacity, ..
        } => {
            let mut wide = [0u8; 16];
            wide[..*n as usize].copy_from_slice(bytes(at, *n as usize)?);
            let len = u128::from_le_bytes(wide);
            if len > *capacity as u128 {
                return Err(fail(
                    at,
                    &format!("a length of {len}, past its capacity {capacity}"),
                ));
            }
            Ok((Value::Int(len), at + *n as usize))
        }
        Ty::Float { bytes: n } => {
            let mut wide = [0u8; 8];
            wide[..*n as usize].copy_from_slice(bytes(at, *n as usize)?);
            Ok((Value::Float(u64::from_le_bytes(wide)), at + *n as usize))
        }
        Ty::Pubkey => Ok((
            Value::Pubkey(bytes(at, 32)?.try_into().expect("32 bytes")),
            at + 32,
        )),
        Ty::Array(inner, len) => {
            let mut at = at;
            let mut items = Vec::with_capacity(*len);
            for _ in 0..*len {
                let (item, end) = decode(inner, data, at)?;
                items.push(item);
                at = end;
            }
            Ok((Value::Array(items), at))
        }
        Ty::Struct(s) => {
            let mut at = at;
            let mut fields = Vec::with_capacity(s.fields.len());
            for field in &s.fields {
                let (value, end) = decode(&field.ty, data, at).map_err(|e| DecodeError {
                    what: format!("`{}.{}`: {}", s.name, field.name, e.what),
                    ..e
                })?;
                fields.push(value);
                at = end;
            }
            Ok((Value::Struct(fields), at))
        }
        Ty::Enum(e) => {
            let mut wide = [0u8; 8];
            wide[..e.tag as usize].copy_from_slice(bytes(at, e.tag as usize)?);
            let tag = u64::from_le_bytes(wide) as usize;
            let variant = e
                .variants
                .get(tag)
                .ok_or_else(|| fail(at, &format!("`{}` has no variant {tag}", e.name)))?;
            let mut end = at + e.tag as usize;
            let mut fields = Vec::new();
            for field in &variant.fields {
                let (value, next) = decode(&field.ty, data, end)?;
                fields.push(value);
                end = next;
            }
            Ok((Value::Enum(tag, fields), end))
        }
        Ty::Option(inner) => match bytes(at, 1)?[0] {
            0 => Ok((Value::Option(None), at + 1)),
            1 => {
                let (value, end) = decode(inner, data, at + 1)?;
                Ok((Value::Option(Some(Box::new(value))), end))
            }
            other => Err(fail(at, &format!("an option tag that is {other}"))),
        },
        Ty::Vec(inner) => {
            let (n, mut at) = count(at)?;
            if n > data.len() {
                return Err(fail(at - 4, &format!("a count of {n}, past the data")));
            }
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                let (item, end) = decode(inner, data, at)?;
                items.push(item);
                at = end;
            }
            Ok((Value::Vec(items), at))
        }
        // As a `BTreeMap` decodes: a repeated key keeps its place and
        // takes the later value (a set keeps it once), then in order.
        Ty::Map { key, value, .. } => {
            let (n, mut at) = count(at)?;
            if n > data.len() {
                return Err(fail(at - 4, &format!("a count of {n}, past the data")));
            }
            let mut entries = Vec::with_capacity(n);
            for _ in 0..n {
                let (k, end) = decode(key, data, at)?;
                at = end;
                let mut entry = vec![k];
                if let Some(value) = value {
                    let (v, end) = decode(value, data, at)?;
                    at = end;
                    entry.push(v);
                }
                entries.push(Value::Struct(entry));
            }
            normalize_entries(&mut entries, key);
            Ok((Value::Vec(entries), at))
        }
        Ty::String => {
            let (len, start) = count(at)?;
            let text = std::str::from_utf8(bytes(start, len)?)
                .map_err(|e| fail(start + e.valid_up_to(), "a string that is not UTF-8"))?;
            Ok((Value::String(text.into()), start + len))
        }
        Ty::Bytes => {
            let (len, start) = count(at)?;
            Ok((Value::Bytes(bytes(start, len)?.to_vec()), start + len))
        }
        Ty::BigEndian { bytes: n, .. } => {
            let mut wide = [0u8; 16];
            wide[16 - *n as usize..].copy_from_slice(bytes(at, *n as usize)?);
            Ok((Value::Int(u128::from_be_bytes(wide)), at + *n as usize))
        }
        Ty::ShortU16 => {
            let (value, end) = decode_short_u16(data, at)?;
            Ok((Value::Int(value.into()), end))
        }
        Ty::List { item, count } => {
            let (n, mut at) = decode_count(*count, data, at)?;
            let mut items = Vec::new();
            match n {
                Some(n) => {
                    if n > data.len() {
                        return Err(fail(at, &format!("a count of {n}, past the data")));
                    }
                    for _ in 0..n {
                        let (value, end) = decode(item, data, at)?;
                        items.push(value);
                        at = end;
                    }
                }
                None => {
                    while at < data.len() {
                        let (value, end) = decode(item, data, at)?;
                        items.push(value);
                        at = end;
                    }
                }
            }
            Ok((Value::Vec(items), at))
        }
        Ty::Text(count) => {
            let (len, start) = decode_count(*count, data, at)?;
            let len = len.unwrap_or(data.len().saturating_sub(start));
            let text = std::str::from_utf8(bytes(start, len)?)
                .map_err(|e| fail(start + e.valid_up_to(), "a string that is not UTF-8"))?;
            Ok((Value::String(text.into()), start + len))
        }
        Ty::TaggedOption { tag, fixed, item } => {
            let mut wide = [0u8; 8];
            wide[..*tag as usize].copy_from_slice(bytes(at, *tag as usize)?);
            let start = at + *tag as usize;
            match u64::from_le_bytes(wide) {
                0 => {
                    let len = if *fixed {
                        crate::layout::encoded_len(item).unwrap_or(0)
                    } else {
                        0
                    };
                    bytes(start, len)?;
                    Ok((Value::Option(None), start + len))
                }
                1 => {
                    let (value, end) = decode(item, data, start)?;
                    Ok((Value::Option(Some(Box::new(value))), end))
                }
                other => Err(fail(at, &format!("an option tag that is {other}"))),
            }
        }
        Ty::ZeroableOption(item) => {
            let len = crate::layout::encoded_len(item).unwrap_or(0);
            if bytes(at, len)?.iter().all(|b| *b == 0) {
                Ok((Value::Option(None), at + len))
            } else {
                let (value, end) = decode(item, data, at)?;
                Ok((Value::Option(Some(Box::new(value))), end))
            }
        }
    }
}

/// A compact `u16` at `at` (at most 3 bytes, no byte of zeros after the
/// first, no bits past 16), and where it ends.
pub fn decode_short_u16(data: &[u8], at: usize) -> Result<(u16, usize), DecodeError> {
    let mut value: u32 = 0;
    for i in 0..3 {
        let byte = *data.get(at + i).ok_or_else(|| DecodeError {
            at: at + i,
            what: "a shortU16 past the data's end".into(),
        })?;
        if i > 0 && byte == 0 {
            return Err(DecodeError {
                at: at + i,
                what: "a shortU16 that is not in its shortest form".into(),
            });
        }
        value |= u32::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return u16::try_from(value)
                .map(|v| (v, at + i + 1))
                .map_err(|_| DecodeError {
                    at,
                    what: "a shortU16 past u16::MAX".into(),
                });
        }
    }
    Err(DecodeError {
        at: at + 2,
        what: "a shortU16 longer than 3 bytes".into(),
    })
}

/// A list's or string's count at `at` (`None` for a remainder), and where
/// what it counts starts.
fn decode_count(
    count: Count,
    data: &[u8],
    at: usize,
) -> Result<(Option<usize>, usize), DecodeError> {
    match count {
        Count::Prefix(n) => {
            let raw = at
                .checked_add(n as usize)
                .and_then(|end| data.get(at..end))
                .ok_or_else(|| DecodeError {
                    at,
                    what: format!("a {n}-byte count past the data's end"),
                })?;
            let mut wide = [0u8; 8];
            wide[..n as usize].copy_from_slice(raw);
            Ok((Some(u64::from_le_bytes(wide) as usize), at + n as usize))
        }
        Count::ShortU16 => decode_short_u16(data, at).map(|(n, end)| (Some(n as usize), end)),
        Count::Remainder => Ok((None, at)),
    }
}

/// A zero-copy account's record read back from its memory (bools and unit
/// enums checked), or the byte where it stopped.
pub fn decode_zero_copy(ty: &Ty, data: &[u8], packed: bool) -> Result<Value, DecodeError> {
    match ty {
        Ty::Struct(s) => {
            let layout = struct_layout(s, packed).map_err(|what| DecodeError { at: 0, what })?;
            let mut fields = Vec::with_capacity(s.fields.len());
            for (field, &at) in s.fields.iter().zip(&layout.offsets) {
                let value =
                    decode_zero_copy(&field.ty, data.get(at..).unwrap_or(&[]), packed || s.packed)
                        .map_err(|e| DecodeError {
                            at: at + e.at,
                            what: format!("`{}.{}`: {}", s.name, field.name, e.what),
                        })?;
                fields.push(value);
            }
            text_in_use(s, &fields, &layout.offsets)?;
            Ok(Value::Struct(fields))
        }
        Ty::Array(inner, len) => {
            let size = crate::layout::zero_copy(inner, packed)
                .map_err(|what| DecodeError { at: 0, what })?
                .size;
            (0..*len)
                .map(|i| {
                    decode_zero_copy(inner, data.get(i * size..).unwrap_or(&[]), packed).map_err(
                        |e| DecodeError {
                            at: i * size + e.at,
                            ..e
                        },
                    )
                })
                .collect::<Result<_, _>>()
                .map(Value::Array)
        }
        Ty::Enum(e) => match data.first() {
            Some(&tag) if (tag as usize) < e.variants.len() => {
                Ok(Value::Enum(tag as usize, Vec::new()))
            }
            Some(&tag) => Err(DecodeError {
                at: 0,
                what: format!("`{}` has no variant {tag}", e.name),
            }),
            None => Err(DecodeError {
                at: 0,
                what: "past the data's end".into(),
            }),
        },
        scalar => decode(scalar, data, 0).map(|(value, _)| value),
    }
}

/// A fixed-capacity string (a [`Ty::Length`] with `text`, then its bytes)
/// whose bytes in use are not UTF-8: an error at its first byte.
fn text_in_use(s: &Struct, values: &[Value], offsets: &[usize]) -> Result<(), DecodeError> {
    for (i, pair) in s.fields.windows(2).enumerate() {
        let (Ty::Length { text: true, .. }, Value::Int(len), Value::Array(items)) =
            (&pair[0].ty, &values[i], &values[i + 1])
        else {
            continue;
        };
        let bytes: Vec<u8> = items
            .iter()
            .take(*len as usize)
            .map(|b| match b {
                Value::Int(b) => *b as u8,
                _ => 0,
            })
            .collect();
        if std::str::from_utf8(&bytes).is_err() {
            return Err(DecodeError {
                at: offsets[i + 1],
                what: format!(
                    "`{}.{}`: its bytes in use are not UTF-8",
                    s.name, pair[1].name
                ),
            });
        }
    }
    Ok(())
}

/// A record read from an account's data (`DATA=`): the value, and the
/// bytes after the record, which every case keeps as they are.
pub fn decode_account(account: &Account, data: &[u8]) -> Result<(Value, Vec<u8>), DecodeError> {
    let discriminator = &account.discriminator;
    if !data.starts_with(discriminator) {
        return Err(DecodeError {
            at: 0,
            what: format!(
                "does not start with the IDL's discriminator for `{}` ({discriminator:?})",
                account.name
            ),
        });
    }
    let at = discriminator.len();
    let ty = Ty::Struct(account.record.clone());
    let (record, end) = match account.kind.memory() {
        None => decode(&ty, data, at)?,
        Some(packed) => {
            let size = struct_layout(&account.record, packed)
                .map_err(|what| DecodeError { at, what })?
                .layout
                .size;
            if data.len() < at + size {
                return Err(DecodeError {
                    at: data.len(),
                    what: format!("{} bytes, the layout needs {}", data.len(), at + size),
                });
            }
            let record = decode_zero_copy(&ty, &data[at..at + size], packed)
                .map_err(|e| DecodeError { at: at + e.at, ..e })?;
            (record, at + size)
        }
    };
    Ok((record, data[end..].to_vec()))
}
