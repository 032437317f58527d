//! Values of the model's types: the instances every case runs on, and the
//! host oracle's two encodings of them (borsh's, and a zero-copy account's
//! memory). The oracle is written from the model, not generated with the
//! programs, so a generator bug cannot make both sides agree.

use sha2::{Digest, Sha256};

use crate::{
    layout::struct_layout,
    model::{Account, Count, Kind, Struct, Ty},
};

/// A value of a [`Ty`].
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Bool(bool),
    /// Two's complement, in the type's width.
    Int(u128),
    /// The float's bits.
    Float(u64),
    Pubkey([u8; 32]),
    Array(Vec<Value>),
    Struct(Vec<Value>),
    Enum(usize, Vec<Value>),
    Option(Option<Box<Value>>),
    Vec(Vec<Value>),
    String(String),
    Bytes(Vec<u8>),
}

/// How an instance is filled: every option `Some` and every list at its length, or
/// every option `None` and every list empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Full,
    Empty,
}

/// How long strings and lists are in the `Full` instance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lengths {
    pub string: usize,
    pub list: usize,
}

impl Default for Lengths {
    fn default() -> Self {
        Self {
            string: 24,
            list: 4,
        }
    }
}

/// Builds deterministic instances: integers from their path (distinct and
/// non-zero), pubkeys from their path's hash, bools alternating, the enum
/// variant with the largest encoding, padding and reserved arrays zero.
pub struct Instances {
    pub shape: Fill,
    pub lengths: Lengths,
    bools: usize,
}

impl Instances {
    pub fn new(shape: Fill, lengths: Lengths) -> Self {
        Self {
            shape,
            lengths,
            bools: 0,
        }
    }

    /// The record of `account`.
    pub fn record(&mut self, account: &Account) -> Value {
        self.value(&Ty::Struct(account.record.clone()), &account.name, false)
    }

    /// A value of `ty`, its integers and strings drawn from `path`.
    pub fn value_of(&mut self, ty: &Ty, path: &str) -> Value {
        self.value(ty, path, false)
    }

    fn value(&mut self, ty: &Ty, path: &str, zero: bool) -> Value {
        let hash = Sha256::digest(path.as_bytes());
        match ty {
            Ty::Bool => {
                self.bools += 1;
                Value::Bool(!zero && self.bools % 2 == 1)
            }
            Ty::Int { bytes, .. } | Ty::BigEndian { bytes, .. } => {
                let wide = u128::from_le_bytes(hash[..16].try_into().expect("16 bytes"));
                let value = truncate(wide, *bytes) | 1;
                Value::Int(if zero { 0 } else { value })
            }
            Ty::ShortU16 => {
                let wide = u128::from_le_bytes(hash[..16].try_into().expect("16 bytes"));
                Value::Int(if zero { 0 } else { truncate(wide, 2) | 1 })
            }
            Ty::Float { bytes } => {
                let n = f64::from(hash[0]) + 0.5;
                let bits = if zero {
                    0
                } else if *bytes == 4 {
                    u64::from((n as f32).to_bits())
                } else {
                    n.to_bits()
                };
                Value::Float(bits)
            }
            Ty::Pubkey => Value::Pubkey(if zero { [0; 32] } else { hash.into() }),
            Ty::Array(inner, len) => {
                let zero = zero || is_reserved(path);
                Value::Array(
                    (0..*len)
                        .map(|i| self.value(inner, &format!("{path}[{i}]"), zero))
                        .collect(),
                )
            }
            Ty::Struct(s) => Value::Struct(
                s.fields
                    .iter()
                    .map(|f| {
                        let path = format!("{path}.{}", f.name);
                        let zero = zero || is_reserved(&f.name);
                        self.value(&f.ty, &path, zero)
                    })
                    .collect(),
            ),
            Ty::Enum(e) => {
                // The variant with the largest encoding (the last of those).
                let index = e
                    .variants
                    .iter()
                    .enumerate()
                    .max_by_key(|(_, v)| v.fields.len())
                    .map_or(0, |(i, _)| i);
                // Reserved space holds the first variant, zero: its tag and
                // its own fields (not the largest variant's).
                let index = if zero {
                    0
                } else if e.is_unit() {
                    e.variants.len().saturating_sub(1)
                } else {
                    index
                };
                let fields = e.variants.get(index).map_or(Vec::new(), |v| {
                    v.fields
                        .iter()
                        .map(|f| self.value(&f.ty, &format!("{path}.{}", f.name), zero))
                        .collect()
                });
                Value::Enum(index, fields)
            }
            Ty::Option(inner)
            | Ty::TaggedOption { item: inner, .. }
            | Ty::ZeroableOption(inner) => Value::Option(match self.shape {
                Fill::Full => Some(Box::new(self.value(inner, &format!("{path}?"), zero))),
                Fill::Empty => None,
            }),
            Ty::Vec(inner) | Ty::List { item: inner, .. } => Value::Vec(
                (0..self.list_len())
                    .map(|i| self.value(inner, &format!("{path}[{i}]"), zero))
                    .collect(),
            ),
            Ty::String | Ty::Text(_) => Value::String(match self.shape {
                // One two-byte character, then ASCII, to the length.
                Fill::Full => {
                    let rest = self.lengths.string.saturating_sub(2);
                    let ascii: String = (0..rest)
                        .map(|i| (b'a' + hash[i % 32] % 26) as char)
                        .collect();
                    format!("é{ascii}")
                }
                Fill::Empty => String::new(),
            }),
            Ty::Bytes => Value::Bytes(hash.iter().cycle().take(self.list_len()).copied().collect()),
            // Distinct keys, in the key's order: as a map holds them and
            // borsh writes them.
            Ty::Map { key, value, .. } => {
                let mut entries: Vec<Value> = (0..self.list_len())
                    .map(|i| {
                        let mut entry = vec![self.value(key, &format!("{path}[{i}].key"), zero)];
                        if let Some(value) = value {
                            entry.push(self.value(value, &format!("{path}[{i}].value"), zero));
                        }
                        Value::Struct(entry)
                    })
                    .collect();
                normalize_entries(&mut entries, key);
                Value::Vec(entries)
            }
        }
    }

    fn list_len(&self) -> usize {
        match self.shape {
            Fill::Full => self.lengths.list,
            Fill::Empty => 0,
        }
    }
}

/// Whether a field or array is padding or reserved space, which stays zero.
fn is_reserved(name: &str) -> bool {
    let name = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    ["padding", "reserved", "_pad", "unused", "space"]
        .iter()
        .any(|word| name.contains(word))
}

/// `value` cut to `bytes` bytes.
pub fn truncate(value: u128, bytes: u8) -> u128 {
    if bytes >= 16 {
        value
    } else {
        value & ((1u128 << (8 * u32::from(bytes))) - 1)
    }
}

/// `value`'s bytes: borsh's encoding, or for a Codama IDL's types the
/// bytes it describes.
pub fn encode(value: &Value, ty: &Ty, out: &mut Vec<u8>) {
    match (value, ty) {
        (Value::Bool(b), _) => out.push(u8::from(*b)),
        (Value::Int(v), Ty::BigEndian { bytes, .. }) => {
            out.extend_from_slice(&v.to_be_bytes()[16 - *bytes as usize..])
        }
        (Value::Int(v), Ty::ShortU16) => short_u16(*v as u16, out),
        (Value::Vec(items), Ty::List { item, count }) => {
            prefix(*count, items.len(), out);
            for value in items {
                encode(value, item, out);
            }
        }
        (Value::String(s), Ty::Text(count)) => {
            prefix(*count, s.len(), out);
            out.extend_from_slice(s.as_bytes());
        }
        (Value::Option(inner), Ty::TaggedOption { tag, fixed, item }) => match inner {
            None => {
                out.extend(std::iter::repeat_n(0, *tag as usize));
                if *fixed {
                    let len = crate::layout::encoded_len(item).expect("a fixed option's item");
                    out.extend(std::iter::repeat_n(0, len));
                }
            }
            Some(inner) => {
                out.extend_from_slice(&1u64.to_le_bytes()[..*tag as usize]);
                encode(inner, item, out);
            }
        },
        (Value::Option(inner), Ty::ZeroableOption(item)) => match inner {
            None => {
                let len = crate::layout::encoded_len(item).expect("a zeroable option's item");
                out.extend(std::iter::repeat_n(0, len));
            }
            Some(inner) => encode(inner, item, out),
        },
        (Value::Int(v), Ty::Int { bytes, .. }) => {
            out.extend_from_slice(&v.to_le_bytes()[..*bytes as usize])
        }
        (Value::Float(bits), Ty::Float { bytes }) => {
            out.extend_from_slice(&bits.to_le_bytes()[..*bytes as usize])
        }
        (Value::Pubkey(key), _) => out.extend_from_slice(key),
        (Value::Array(items), Ty::Array(inner, _)) => {
            for item in items {
                encode(item, inner, out);
            }
        }
        (Value::Struct(fields), Ty::Struct(s)) => {
            for (value, field) in fields.iter().zip(&s.fields) {
                encode(value, &field.ty, out);
            }
        }
        (Value::Enum(index, fields), Ty::Enum(e)) => {
            out.extend_from_slice(&(*index as u64).to_le_bytes()[..e.tag as usize]);
            for (value, field) in fields.iter().zip(&e.variants[*index].fields) {
                encode(value, &field.ty, out);
            }
        }
        (Value::Option(inner), Ty::Option(ty)) => match inner {
            None => out.push(0),
            Some(inner) => {
                out.push(1);
                encode(inner, ty, out);
            }
        },
        (Value::Vec(items), Ty::Vec(inner)) => {
            out.extend_from_slice(&(items.len() as u32).to_le_bytes());
            for item in items {
                encode(item, inner, out);
            }
        }
        (Value::Vec(entries), Ty::Map { key, value, .. }) => {
            out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
            for entry in entries {
                let Value::Struct(parts) = entry else {
                    unreachable!("a map's entry is its key and value")
                };
                encode(&parts[0], key, out);
                if let (Some(v), Some(ty)) = (parts.get(1), value) {
                    encode(v, ty, out);
                }
            }
        }
        (Value::String(s), _) => {
            out.extend_from_slice(&(s.len() as u32).to_le_bytes());
            out.extend_from_slice(s.as_bytes());
        }
        (Value::Bytes(bytes), _) => {
            out.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
            out.extend_from_slice(bytes);
        }
        (value, ty) => unreachable!("a value {value:?} of another type than {ty:?}"),
    }
}

/// A zero-copy account's memory of `value`: fields at their SBF offsets,
/// padding zero. The type has a layout (the caller checked).
pub fn zero_copy(value: &Value, ty: &Ty, packed: bool, out: &mut [u8]) {
    match (value, ty) {
        (Value::Struct(fields), Ty::Struct(s)) => {
            let layout = struct_layout(s, packed).expect("a laid-out type");
            for ((value, field), at) in fields.iter().zip(&s.fields).zip(layout.offsets) {
                zero_copy(value, &field.ty, packed || s.packed, &mut out[at..]);
            }
        }
        (Value::Array(items), Ty::Array(inner, _)) => {
            let size = crate::layout::zero_copy(inner, packed)
                .expect("a laid-out type")
                .size;
            for (i, item) in items.iter().enumerate() {
                zero_copy(item, inner, packed, &mut out[i * size..]);
            }
        }
        (Value::Enum(index, _), _) => out[0] = *index as u8,
        (value, ty) => {
            let mut bytes = Vec::new();
            encode(value, ty, &mut bytes);
            out[..bytes.len()].copy_from_slice(&bytes);
        }
    }
}

/// Solana's compact `u16`: 7 bits a byte, low first, the high bit set on
/// every byte but the last.
pub fn short_u16(mut value: u16, out: &mut Vec<u8>) {
    loop {
        let low = (value & 0x7f) as u8;
        value >>= 7;
        if value == 0 {
            out.push(low);
            return;
        }
        out.push(low | 0x80);
    }
}

/// A list's or string's length as `count` writes it (nothing for a
/// remainder).
fn prefix(count: Count, len: usize, out: &mut Vec<u8>) {
    match count {
        Count::Prefix(bytes) => {
            out.extend_from_slice(&(len as u64).to_le_bytes()[..bytes as usize])
        }
        Count::ShortU16 => short_u16(len as u16, out),
        Count::Remainder => {}
    }
}

/// The account's data: the discriminator, then the record in the
/// account's layout.
pub fn account_data(account: &Account, record: &Value) -> Vec<u8> {
    let ty = Ty::Struct(account.record.clone());
    let mut data = account.discriminator.clone();
    match account.kind {
        Kind::Borsh | Kind::Codama => encode(record, &ty, &mut data),
        Kind::ZeroCopy { packed } => {
            let size = struct_layout(&account.record, packed)
                .expect("a laid-out type")
                .layout
                .size;
            let at = data.len();
            data.resize(at + size, 0);
            zero_copy(record, &ty, packed, &mut data[at..]);
        }
    }
    data
}

/// The bytes of a scalar or pubkey value, as the instruction data carries
/// it (little-endian, a bool as one byte).
pub fn scalar_bytes(value: &Value, ty: &Ty) -> Vec<u8> {
    let mut bytes = Vec::new();
    encode(value, ty, &mut bytes);
    bytes
}

/// A field inside a record: its index at each level of nested structs.
pub type FieldPath = Vec<usize>;

/// Whether a field can be read or stored as one value: a scalar or pubkey.
pub fn is_scalar(ty: &Ty) -> bool {
    matches!(
        ty,
        Ty::Bool | Ty::Int { .. } | Ty::BigEndian { .. } | Ty::Float { .. } | Ty::Pubkey
    )
}

/// Whether a field can be updated: an integer.
pub fn is_integer(ty: &Ty) -> bool {
    matches!(ty, Ty::Int { .. } | Ty::BigEndian { .. })
}

/// The last scalar or pubkey of `record` that is not padding or reserved:
/// at the top level where there is one, else inside the last nested struct
/// that holds one (`None` where no struct on the way holds any).
pub fn default_path(record: &Struct, pred: fn(&Ty) -> bool) -> Option<FieldPath> {
    if let Some(i) = record
        .fields
        .iter()
        .rposition(|f| pred(&f.ty) && !is_reserved(&f.name))
    {
        return Some(vec![i]);
    }
    record.fields.iter().enumerate().rev().find_map(|(i, f)| {
        let Ty::Struct(inner) = &f.ty else {
            return None;
        };
        if is_reserved(&f.name) {
            return None;
        }
        default_path(inner, pred).map(|rest| [vec![i], rest].concat())
    })
}

/// The path of `names` (`fees.protocol_fee`) in `record`, or what is wrong
/// with it.
pub fn path_of(record: &Struct, names: &str) -> Result<FieldPath, String> {
    let mut path = Vec::new();
    let mut at = record;
    let parts: Vec<&str> = names.split('.').collect();
    for (depth, name) in parts.iter().enumerate() {
        let i = at
            .fields
            .iter()
            .position(|f| f.name == *name)
            .ok_or_else(|| format!("`{}` has no field `{name}`", at.name))?;
        path.push(i);
        match &at.fields[i].ty {
            Ty::Struct(inner) if depth + 1 < parts.len() => at = inner,
            _ if depth + 1 < parts.len() => {
                return Err(format!("`{}.{name}` is not a struct", at.name));
            }
            _ => {}
        }
    }
    Ok(path)
}

/// The type at `path` in `record`.
pub fn ty_at<'a>(record: &'a Struct, path: &[usize]) -> &'a Ty {
    let (first, rest) = path.split_first().expect("a path names a field");
    let ty = &record.fields[*first].ty;
    match (ty, rest.is_empty()) {
        (_, true) => ty,
        (Ty::Struct(inner), false) => ty_at(inner, rest),
        _ => unreachable!("a path goes through structs"),
    }
}

/// The field names along `path` (`fees.protocol_fee`).
pub fn path_name(record: &Struct, path: &[usize]) -> String {
    let mut names = Vec::new();
    let mut at = record;
    for i in path {
        names.push(at.fields[*i].name.clone());
        if let Ty::Struct(inner) = &at.fields[*i].ty {
            at = inner;
        }
    }
    names.join(".")
}

/// The value at `path` in `record`.
pub fn value_at<'a>(record: &'a Value, path: &[usize]) -> &'a Value {
    match (record, path.split_first()) {
        (_, None) => record,
        (Value::Struct(fields), Some((first, rest))) => value_at(&fields[*first], rest),
        _ => unreachable!("a path goes through structs"),
    }
}

/// The value with the field at `path` replaced.
pub fn with_path(record: &Value, path: &[usize], value: Value) -> Value {
    match (record, path.split_first()) {
        (_, None) => value,
        (Value::Struct(fields), Some((first, rest))) => {
            let mut fields = fields.clone();
            fields[*first] = with_path(&fields[*first], rest, value);
            Value::Struct(fields)
        }
        _ => unreachable!("a path goes through structs"),
    }
}

/// In borsh's encoding of `value`, the first byte a decoder must refuse
/// when changed, and a value that makes it invalid: a bool's byte (2), an
/// option's tag (2), an enum's tag (one past its variants), the first
/// byte of a non-empty string (0xff, not UTF-8). `None` where the encoding
/// has no such byte.
pub fn first_invalid(value: &Value, ty: &Ty) -> Option<(usize, u8)> {
    fn walk(value: &Value, ty: &Ty, at: &mut usize) -> Option<(usize, u8)> {
        let here = *at;
        let mut pass = |value: &Value, ty: &Ty| {
            let mut bytes = Vec::new();
            encode(value, ty, &mut bytes);
            *at += bytes.len();
        };
        match (value, ty) {
            (Value::Bool(_), _) => Some((here, 2)),
            (Value::Option(_), Ty::ZeroableOption(_)) => {
                pass(value, ty);
                None
            }
            (Value::Option(_), _) => Some((here, 2)),
            (Value::String(s), Ty::Text(count)) if !s.is_empty() => {
                let mut prefix_bytes = Vec::new();
                prefix(*count, s.len(), &mut prefix_bytes);
                Some((here + prefix_bytes.len(), 0xff))
            }
            (Value::Enum(..), Ty::Enum(e)) if e.variants.len() < 256 => {
                Some((here, e.variants.len() as u8))
            }
            (Value::String(s), _) if !s.is_empty() => Some((here + 4, 0xff)),
            (Value::Struct(fields), Ty::Struct(s)) => {
                for (value, field) in fields.iter().zip(&s.fields) {
                    if let Some(found) = walk(value, &field.ty, at) {
                        return Some(found);
                    }
                }
                None
            }
            (Value::Vec(entries), Ty::Map { key, value, .. }) => {
                *at += 4;
                for entry in entries {
                    let Value::Struct(parts) = entry else {
                        return None;
                    };
                    if let Some(found) = walk(&parts[0], key, at) {
                        return Some(found);
                    }
                    if let (Some(v), Some(ty)) = (parts.get(1), value)
                        && let Some(found) = walk(v, ty, at)
                    {
                        return Some(found);
                    }
                }
                None
            }
            (Value::Array(items), Ty::Array(inner, _))
            | (Value::Vec(items), Ty::Vec(inner) | Ty::List { item: inner, .. }) => {
                match ty {
                    Ty::Vec(_) => *at += 4,
                    Ty::List { count, .. } => {
                        let mut prefix_bytes = Vec::new();
                        prefix(*count, items.len(), &mut prefix_bytes);
                        *at += prefix_bytes.len();
                    }
                    _ => {}
                }
                for item in items {
                    if let Some(found) = walk(item, inner, at) {
                        return Some(found);
                    }
                }
                None
            }
            (value, ty) => {
                pass(value, ty);
                None
            }
        }
    }
    walk(value, ty, &mut 0)
}

/// The value `update` writes: the instance's value plus one, in its width.
pub fn updated(value: &Value, ty: &Ty) -> Value {
    match (value, ty) {
        (Value::Int(v), Ty::Int { bytes, .. } | Ty::BigEndian { bytes, .. }) => {
            Value::Int(truncate(v.wrapping_add(1), *bytes))
        }
        _ => unreachable!("the update field is an integer"),
    }
}

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
            for (field, at) in s.fields.iter().zip(layout.offsets) {
                let value =
                    decode_zero_copy(&field.ty, data.get(at..).unwrap_or(&[]), packed || s.packed)
                        .map_err(|e| DecodeError {
                            at: at + e.at,
                            what: format!("`{}.{}`: {}", s.name, field.name, e.what),
                        })?;
                fields.push(value);
            }
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
    let (record, end) = match account.kind {
        Kind::Borsh | Kind::Codama => decode(&ty, data, at)?,
        Kind::ZeroCopy { packed } => {
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

/// The most data an account may hold (10 MiB): no generated value may
/// need more.
pub const MAX_DATA_LEN: u64 = 10 * 1024 * 1024;

/// At least the bytes the `full` instance of `ty` encodes to (every
/// option `Some`, every list of `lengths.list` items, every string of
/// `lengths.string` bytes, each enum's largest variant), each item of an
/// array counted as at least one byte (a million empty structs are a
/// million values to generate); saturating.
pub fn full_len(ty: &Ty, lengths: Lengths) -> u64 {
    let fields = |fields: &[crate::model::Field]| {
        fields
            .iter()
            .fold(0u64, |sum, f| sum.saturating_add(full_len(&f.ty, lengths)))
    };
    let list = lengths.list as u64;
    match ty {
        Ty::Bool | Ty::ShortU16 => 1,
        Ty::Int { bytes, .. } | Ty::Float { bytes } | Ty::BigEndian { bytes, .. } => {
            u64::from(*bytes)
        }
        Ty::Pubkey => 32,
        Ty::Array(item, len) => full_len(item, lengths).max(1).saturating_mul(*len as u64),
        Ty::Struct(s) => fields(&s.fields),
        Ty::Enum(e) => u64::from(e.tag).saturating_add(
            e.variants
                .iter()
                .map(|v| fields(&v.fields))
                .max()
                .unwrap_or(0),
        ),
        Ty::Option(item) | Ty::TaggedOption { item, .. } | Ty::ZeroableOption(item) => {
            full_len(item, lengths).saturating_add(4)
        }
        Ty::Vec(item) | Ty::List { item, .. } => full_len(item, lengths)
            .max(1)
            .saturating_mul(list)
            .saturating_add(4),
        Ty::String | Ty::Bytes | Ty::Text(_) => (lengths.string as u64).saturating_add(4),
        Ty::Map { key, value, .. } => full_len(key, lengths)
            .saturating_add(value.as_deref().map_or(0, |v| full_len(v, lengths)))
            .max(1)
            .saturating_mul(list)
            .saturating_add(4),
    }
}

/// A map's entries (`[key]` or `[key, value]` structs) as a `BTreeMap`
/// holds them: one per key (a later entry's value replaces an earlier
/// one's), in the key's order.
fn normalize_entries(entries: &mut Vec<Value>, key: &Ty) {
    let mut kept: Vec<Value> = Vec::with_capacity(entries.len());
    for entry in entries.drain(..) {
        match kept
            .iter_mut()
            .find(|e| key_cmp(first(e), first(&entry), key).is_eq())
        {
            Some(existing) => {
                if let (Value::Struct(old), Value::Struct(new)) = (existing, &entry)
                    && old.len() == 2
                    && new.len() == 2
                {
                    old[1] = new[1].clone();
                }
            }
            None => kept.push(entry),
        }
    }
    kept.sort_by(|a, b| key_cmp(first(a), first(b), key));
    *entries = kept;
}

fn first(entry: &Value) -> &Value {
    match entry {
        Value::Struct(parts) => &parts[0],
        other => other,
    }
}

/// The order of two keys of `ty` as Rust's `Ord` has it: numbers by value
/// (signed ones as two's complement in their width), `false` first,
/// strings, bytes and pubkeys byte by byte.
fn key_cmp(a: &Value, b: &Value, ty: &Ty) -> std::cmp::Ordering {
    match (a, b, ty) {
        (
            Value::Int(a),
            Value::Int(b),
            Ty::Int {
                bytes,
                signed: true,
            },
        ) => {
            let shift = 128 - 8 * u32::from(*bytes);
            ((*a as i128) << shift >> shift).cmp(&((*b as i128) << shift >> shift))
        }
        (Value::Int(a), Value::Int(b), _) => a.cmp(b),
        (Value::Bool(a), Value::Bool(b), _) => a.cmp(b),
        (Value::String(a), Value::String(b), _) => a.as_bytes().cmp(b.as_bytes()),
        (Value::Bytes(a), Value::Bytes(b), _) => a.cmp(b),
        (Value::Pubkey(a), Value::Pubkey(b), _) => a.cmp(b),
        _ => std::cmp::Ordering::Equal,
    }
}

/// Refuses each account, instruction and event no value can be generated
/// for: one that would take more than [`MAX_DATA_LEN`] (an array of 2^40
/// items, lists of lists of large arrays: nothing could hold it, and
/// generating it would not end), and a zero-copy account whose record has
/// no zero-copy layout (a string in it).
pub fn refuse_unmeasurable(program: &mut crate::model::Program, lengths: Lengths) {
    use crate::model::Unsupported;
    fn check<T>(
        items: &mut [Result<T, Unsupported>],
        lengths: Lengths,
        parts: impl Fn(&T) -> (&str, &Struct),
    ) {
        for item in items.iter_mut() {
            let Ok(resolved) = item else { continue };
            let (name, record) = parts(resolved);
            let len = full_len(&Ty::Struct(record.clone()), lengths);
            if len > MAX_DATA_LEN {
                let shown = if len == u64::MAX {
                    "2^64 or more".to_string()
                } else {
                    len.to_string()
                };
                *item = Err(Unsupported {
                    name: name.to_string(),
                    reason: format!(
                        "its generated value takes {shown} bytes, more than an account may hold (10 MiB); a smaller VEC_LEN or STRING_LEN may fit"
                    ),
                });
            }
        }
    }
    check(&mut program.accounts, lengths, |a| (&a.name, &a.record));
    check(&mut program.instructions, lengths, |i| (&i.name, &i.args));
    check(&mut program.events, lengths, |e| (&e.name, &e.record));
    for item in program.accounts.iter_mut() {
        let Ok(account) = item else { continue };
        if let Kind::ZeroCopy { packed } = account.kind
            && let Err(reason) = struct_layout(&account.record, packed)
        {
            *item = Err(Unsupported {
                name: account.name.clone(),
                reason: format!("a zero-copy account with no zero-copy layout: {reason}"),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Field;

    fn record() -> Struct {
        let int = |bytes| Ty::Int {
            bytes,
            signed: false,
        };
        Struct {
            name: "R".into(),
            ident: "R".into(),
            fields: vec![
                Field {
                    name: "flag".into(),
                    ty: Ty::Bool,
                },
                Field {
                    name: "big".into(),
                    ty: int(16),
                },
                Field {
                    name: "owner".into(),
                    ty: Ty::Pubkey,
                },
                Field {
                    name: "count".into(),
                    ty: int(2),
                },
                Field {
                    name: "padding".into(),
                    ty: Ty::Array(Box::new(int(1)), 3),
                },
            ],
            packed: false,
        }
    }

    #[test]
    fn zero_copy_memory_puts_each_field_at_its_sbf_offset() {
        let account = Account {
            name: "R".into(),
            ident: "r".into(),
            discriminator: vec![9; 8],
            kind: Kind::ZeroCopy { packed: false },
            assumed: false,
            record: record(),
        };
        let value = Instances::new(Fill::Full, Lengths::default()).record(&account);
        let data = account_data(&account, &value);
        // flag at 0, padding to 8, big at 8..24, owner 24..56, count 56..58,
        // padding 58..61, then trailing padding to 64.
        assert_eq!(data.len(), 8 + 64);
        let body = &data[8..];
        assert_eq!(body[0], 1);
        assert_eq!(body[1..8], [0; 7]);
        let Value::Struct(fields) = &value else {
            panic!()
        };
        let Value::Int(big) = fields[1] else { panic!() };
        assert_eq!(body[8..24], big.to_le_bytes());
        assert_ne!(big, 0);
        assert_eq!(body[58..64], [0; 6], "the padding array stays zero");
        // borsh's bytes of the same record: no padding.
        let mut borsh_bytes = Vec::new();
        encode(&value, &Ty::Struct(record()), &mut borsh_bytes);
        assert_eq!(borsh_bytes.len(), 1 + 16 + 32 + 2 + 3);
    }

    #[test]
    fn a_record_with_no_top_level_scalar_is_read_inside_its_last_nested_struct() {
        let outer = Struct {
            name: "Outer".into(),
            ident: "Outer".into(),
            fields: vec![
                Field {
                    name: "inner".into(),
                    ty: Ty::Struct(record()),
                },
                Field {
                    name: "names".into(),
                    ty: Ty::Vec(Box::new(Ty::String)),
                },
            ],
            packed: false,
        };
        // `inner.count` (index 3 of `R`): the last scalar of the last struct.
        assert_eq!(default_path(&outer, is_scalar), Some(vec![0, 3]));
        assert_eq!(path_name(&outer, &[0, 3]), "inner.count");
        assert_eq!(path_of(&outer, "inner.owner"), Ok(vec![0, 2]));
        assert_eq!(
            path_of(&outer, "inner.nothing"),
            Err("`R` has no field `nothing`".into())
        );
        assert_eq!(
            path_of(&outer, "names.x"),
            Err("`Outer.names` is not a struct".into())
        );
        let empty = Struct {
            name: "E".into(),
            ident: "E".into(),
            fields: vec![],
            packed: false,
        };
        assert_eq!(default_path(&empty, is_scalar), None);
    }

    #[test]
    fn the_first_invalid_byte_is_the_first_a_decoder_checks() {
        let ty = Ty::Struct(Struct {
            name: "A".into(),
            ident: "A".into(),
            fields: vec![
                Field {
                    name: "n".into(),
                    ty: Ty::Int {
                        bytes: 8,
                        signed: false,
                    },
                },
                Field {
                    name: "s".into(),
                    ty: Ty::String,
                },
                Field {
                    name: "b".into(),
                    ty: Ty::Bool,
                },
            ],
            packed: false,
        });
        let value = Value::Struct(vec![
            Value::Int(5),
            Value::String("ab".into()),
            Value::Bool(true),
        ]);
        // The string's first byte, after the u64 and its u32 length.
        assert_eq!(first_invalid(&value, &ty), Some((12, 0xff)));
        let empty = Value::Struct(vec![
            Value::Int(5),
            Value::String(String::new()),
            Value::Bool(true),
        ]);
        // An empty string has no byte to spoil: the bool after it.
        assert_eq!(first_invalid(&empty, &ty), Some((12, 2)));
    }

    #[test]
    fn read_and_update_default_to_the_last_scalar_and_integer() {
        // `padding` is an array: not a read field.
        assert_eq!(default_path(&record(), is_scalar), Some(vec![3]));
        let is_int = |ty: &Ty| matches!(ty, Ty::Int { .. });
        assert_eq!(default_path(&record(), is_int), Some(vec![3]));
    }
}
