//! Field paths: the `read` and `update` fields of a record, by the user's
//! choice or by default, and the value and type at a path.

use super::types::{FieldPath, Value};
use crate::model::{Struct, Ty};

/// The last field of `record` that is not padding or reserved and is a `T`
/// (a [`Scalar`](crate::model::Scalar::of), an
/// [`Integer`](crate::model::Integer::of)): at the top level where there is
/// one, else inside the last nested struct that holds one (`None` where no
/// struct on the way holds any).
pub fn default_path<T>(record: &Struct, of: fn(&Ty) -> Option<T>) -> Option<FieldPath<T>> {
    let top = record
        .fields
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, f)| !is_reserved(&f.name))
        .find_map(|(i, f)| of(&f.ty).map(|ty| (i, ty)));
    if let Some((i, ty)) = top {
        return Some(FieldPath {
            indexes: vec![i],
            ty,
        });
    }
    record.fields.iter().enumerate().rev().find_map(|(i, f)| {
        let Ty::Struct(inner) = &f.ty else {
            return None;
        };
        if is_reserved(&f.name) {
            return None;
        }
        default_path(inner, of).map(|rest| FieldPath {
            indexes: [vec![i], rest.indexes].concat(),
            ty: rest.ty,
        })
    })
}

/// The path of `names` (`fees.protocol_fee`) in `record` and the type
/// there, or what is wrong with it.
pub fn path_of<'a>(record: &'a Struct, names: &str) -> Result<(Vec<usize>, &'a Ty), String> {
    let mut path = Vec::new();
    let mut at = record;
    let (parents, last) = names
        .rsplit_once('.')
        .map_or((None, names), |(a, b)| (Some(a), b));
    for name in parents.into_iter().flat_map(|parents| parents.split('.')) {
        let i = field_index(at, name)?;
        path.push(i);
        match &at.fields[i].ty {
            Ty::Struct(inner) => at = inner,
            _ => return Err(format!("`{}.{name}` is not a struct", at.name)),
        }
    }
    let i = field_index(at, last)?;
    path.push(i);
    Ok((path, &at.fields[i].ty))
}

fn field_index(record: &Struct, name: &str) -> Result<usize, String> {
    record
        .fields
        .iter()
        .position(|f| f.name == name)
        .ok_or_else(|| format!("`{}` has no field `{name}`", record.name))
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
