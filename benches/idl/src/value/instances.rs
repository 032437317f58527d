//! The instances every case runs on: deterministic values of an account's
//! record, every option and list full or every one empty.

use sha2::{Digest, Sha256};

use super::{
    encode::truncate,
    entries::normalize_entries,
    paths::is_reserved,
    types::{Fill, Lengths, Value},
};
use crate::model::{Account, Ty};

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
            // Only a fixed-capacity record holds one, whose values are its
            // borsh account's (`capacity::fixed`): no instance is drawn.
            Ty::Length { .. } => Value::Int(0),
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
