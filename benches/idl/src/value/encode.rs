//! The host oracle's encodings of a value: borsh's bytes, and a zero-copy
//! account's memory (each field at its SBF offset).

use super::{entries::entry_ty, types::Value};
use crate::{
    layout::struct_layout,
    model::{Account, Count, Kind, Ty},
};

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
        (Value::Int(v), Ty::Int { bytes, .. } | Ty::Length { bytes, .. }) => {
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
            let entry_ty = entry_ty(key, value.as_deref());
            for entry in entries {
                encode(entry, &entry_ty, out);
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
pub(super) fn prefix(count: Count, len: usize, out: &mut Vec<u8>) {
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
        Kind::ZeroCopy { .. } | Kind::FixedCapacity => {
            let packed = account.kind.memory() == Some(true);
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
