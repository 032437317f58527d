//! The values a case writes that an instance does not hold: the first byte
//! a decoder must refuse, and the value `update` writes.

use super::{
    encode::{encode, prefix, truncate},
    types::Value,
};
use crate::model::Ty;

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
