//! An account type's variable fields, walked as the IDL nests them: their
//! paths, the lengths a record holds in them, and the record's bytes at
//! given capacities.
//!
//! A path is the fields' names below the record joined by `.`; an option
//! adds nothing (`creators` for an `Option<Vec<Creator>>`), a list's or
//! map's items add `[]` (`creators[].name`, `tags[]` for a `Vec<String>`'s
//! strings), an enum's variant adds its name (`details.V2.note`).

use std::collections::BTreeMap;

use crate::{
    model::{Field, Struct, Ty},
    value::Value,
};

/// What varies in a variable field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Varies {
    /// A string's or bytes' length, in bytes.
    Bytes,
    /// A list's or map's length, in items.
    Items,
}

impl Varies {
    pub fn unit(self) -> &'static str {
        match self {
            Varies::Bytes => "bytes",
            Varies::Items => "items",
        }
    }
}

/// A field whose length varies: its path, and what varies.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    pub name: String,
    pub varies: Varies,
}

/// Every variable field of `record`, in the IDL's order.
pub fn variables(record: &Struct) -> Vec<Variable> {
    let mut out = Vec::new();
    fields(&record.fields, "", &mut |path, ty| {
        if let Some(varies) = varies(ty) {
            out.push(Variable {
                name: path.to_string(),
                varies,
            });
        }
    });
    out
}

/// Whether `path` names a field of `record` at all (variable or not).
pub fn exists(record: &Struct, path: &str) -> bool {
    let mut found = false;
    fields(&record.fields, "", &mut |at, _| found |= at == path);
    found
}

fn varies(ty: &Ty) -> Option<Varies> {
    match ty {
        Ty::String | Ty::Bytes | Ty::Text(_) => Some(Varies::Bytes),
        Ty::Vec(_) | Ty::List { .. } | Ty::Map { .. } => Some(Varies::Items),
        _ => None,
    }
}

/// Calls `visit` with every field's path and type, at every depth.
fn fields(fields: &[Field], prefix: &str, visit: &mut dyn FnMut(&str, &Ty)) {
    for field in fields {
        ty(&join(prefix, &field.name), &field.ty, visit);
    }
}

fn ty(path: &str, ty: &Ty, visit: &mut dyn FnMut(&str, &Ty)) {
    // An option is its value's field.
    let inner = unwrap_option(ty);
    visit(path, inner);
    match inner {
        Ty::Struct(s) => fields(&s.fields, path, visit),
        Ty::Enum(e) => {
            for variant in &e.variants {
                fields(&variant.fields, &join(path, &variant.name), visit);
            }
        }
        Ty::Array(item, _) => self::ty(path, item, visit),
        Ty::Vec(item) | Ty::List { item, .. } => self::ty(&format!("{path}[]"), item, visit),
        Ty::Map { key, value, .. } => {
            self::ty(&format!("{path}[].key"), key, visit);
            if let Some(value) = value {
                self::ty(&format!("{path}[].value"), value, visit);
            }
        }
        _ => {}
    }
}

fn unwrap_option(ty: &Ty) -> &Ty {
    match ty {
        Ty::Option(item) | Ty::ZeroableOption(item) | Ty::TaggedOption { item, .. } => {
            unwrap_option(item)
        }
        other => other,
    }
}

fn join(prefix: &str, name: &str) -> String {
    match prefix {
        "" => name.to_string(),
        _ => format!("{prefix}.{name}"),
    }
}

/// The largest length `record`'s value holds in each variable field, by
/// path (a list's items' fields: the longest item's); a field absent (an
/// option's `None`) holds none.
pub fn lengths(record: &Struct, value: &Value, out: &mut BTreeMap<String, usize>) {
    if let Value::Struct(values) = value {
        fields_of(&record.fields, values, "", out);
    }
}

fn fields_of(fields: &[Field], values: &[Value], prefix: &str, out: &mut BTreeMap<String, usize>) {
    for (field, value) in fields.iter().zip(values) {
        value_of(&join(prefix, &field.name), &field.ty, value, out);
    }
}

fn value_of(path: &str, ty: &Ty, value: &Value, out: &mut BTreeMap<String, usize>) {
    let mut note = |len: usize| {
        let longest = out.entry(path.to_string()).or_default();
        *longest = (*longest).max(len);
    };
    match (ty, value) {
        (Ty::Option(item) | Ty::ZeroableOption(item) | Ty::TaggedOption { item, .. }, _) => {
            if let Value::Option(Some(inner)) = value {
                value_of(path, item, inner, out);
            }
        }
        (Ty::String | Ty::Text(_), Value::String(s)) => note(s.len()),
        (Ty::Bytes, Value::Bytes(b)) => note(b.len()),
        (Ty::Vec(item) | Ty::List { item, .. }, Value::Vec(items)) => {
            note(items.len());
            let path = format!("{path}[]");
            for v in items {
                value_of(&path, item, v, out);
            }
        }
        (
            Ty::Map {
                key, value: val, ..
            },
            Value::Vec(entries),
        ) => {
            note(entries.len());
            for entry in entries {
                if let Value::Struct(kv) = entry {
                    if let Some(k) = kv.first() {
                        value_of(&format!("{path}[].key"), key, k, out);
                    }
                    if let (Some(val), Some(v)) = (val, kv.get(1)) {
                        value_of(&format!("{path}[].value"), val, v, out);
                    }
                }
            }
        }
        (Ty::Struct(s), Value::Struct(values)) => fields_of(&s.fields, values, path, out),
        (Ty::Enum(e), Value::Enum(index, values)) => {
            if let Some(variant) = e.variants.get(*index) {
                fields_of(&variant.fields, values, &join(path, &variant.name), out);
            }
        }
        (Ty::Array(item, _), Value::Array(items)) => {
            for v in items {
                value_of(path, item, v, out);
            }
        }
        _ => {}
    }
}

/// `record`'s bytes in the fixed-capacity layout at `capacities` (by
/// path); `None` where a variable field has none.
pub fn fixed_len(record: &Struct, capacities: &BTreeMap<String, usize>) -> Option<usize> {
    fields_len(&record.fields, "", capacities)
}

fn fields_len(fields: &[Field], prefix: &str, caps: &BTreeMap<String, usize>) -> Option<usize> {
    fields
        .iter()
        .map(|f| len(&join(prefix, &f.name), &f.ty, caps))
        .sum()
}

/// The bytes of a length that counts up to `capacity`: the fewest of 1,
/// 2 and 4.
pub fn length_bytes(capacity: usize) -> usize {
    match capacity {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        _ => 4,
    }
}

fn len(path: &str, ty: &Ty, caps: &BTreeMap<String, usize>) -> Option<usize> {
    let items = |cap: usize, item: Option<usize>| Some(length_bytes(cap) + cap * item?);
    match ty {
        Ty::Bool => Some(1),
        Ty::Int { bytes, .. }
        | Ty::Float { bytes }
        | Ty::BigEndian { bytes, .. }
        | Ty::Length { bytes, .. } => Some(*bytes as usize),
        Ty::ShortU16 => Some(2),
        Ty::Pubkey => Some(32),
        Ty::Array(item, n) => Some(len(path, item, caps)? * n),
        Ty::Struct(s) => fields_len(&s.fields, path, caps),
        Ty::Enum(e) => {
            let largest = e
                .variants
                .iter()
                .map(|v| fields_len(&v.fields, &join(path, &v.name), caps))
                .collect::<Option<Vec<_>>>()?
                .into_iter()
                .max()
                .unwrap_or(0);
            Some(1 + largest)
        }
        // Its `None` is already the value's size in zero bytes.
        Ty::ZeroableOption(item) => len(path, item, caps),
        Ty::Option(item) | Ty::TaggedOption { item, .. } => Some(1 + len(path, item, caps)?),
        Ty::String | Ty::Bytes | Ty::Text(_) => items(*caps.get(path)?, Some(1)),
        Ty::Vec(item) | Ty::List { item, .. } => {
            items(*caps.get(path)?, len(&format!("{path}[]"), item, caps))
        }
        Ty::Map { key, value, .. } => {
            let key = len(&format!("{path}[].key"), key, caps)?;
            let value = match value {
                Some(v) => len(&format!("{path}[].value"), v, caps)?,
                None => 0,
            };
            items(*caps.get(path)?, Some(key + value))
        }
    }
}
