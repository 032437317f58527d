//! Field paths: the `read` and `update` fields of a record, by the user's
//! choice or by default, and the value and type at a path.

use super::types::{FieldPath, Value};
use crate::model::{Struct, Ty};

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

/// Whether a field or array is padding or reserved space, which stays zero.
pub(super) fn is_reserved(name: &str) -> bool {
    let name = name.rsplit('.').next().unwrap_or(name).to_ascii_lowercase();
    ["padding", "reserved", "_pad", "unused", "space"]
        .iter()
        .any(|word| name.contains(word))
}
