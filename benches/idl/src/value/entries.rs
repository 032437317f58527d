//! A map's entries as the programs hold them: one per key, in the key's
//! order.

use super::types::Value;
use crate::model::{Field, Struct, Ty};

/// The type of a map's entry: a struct of its key and value (a set's
/// entry, of its key), as instances hold it.
pub(super) fn entry_ty(key: &Ty, value: Option<&Ty>) -> Ty {
    let field = |name: &str, ty: &Ty| Field {
        name: name.into(),
        ty: ty.clone(),
    };
    Ty::Struct(Struct {
        name: "entry".into(),
        ident: "Entry".into(),
        fields: std::iter::once(field("key", key))
            .chain(value.map(|ty| field("value", ty)))
            .collect(),
        packed: false,
    })
}

/// A map's entries (`[key]` or `[key, value]` structs) as a `BTreeMap`
/// holds them: one per key (a later entry's value replaces an earlier
/// one's), in the key's order.
pub(super) fn normalize_entries(entries: &mut Vec<Value>, key: &Ty) {
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
