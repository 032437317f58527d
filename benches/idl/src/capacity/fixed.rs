//! The fixed-capacity move written out: a borsh account's record as a
//! type of one size at the capacities sized ([`super::size`]), and each
//! of its values in that type; the record a cast (`bytemuck`,
//! `AccountLoader<T>`) then reads in place ([`Kind::FixedCapacity`]).
//!
//! The layout is the one sized, and the one `common::metadata`'s
//! `FixedCapacity` is written in: no padding; a string, bytes or list as
//! its length ([`Ty::Length`], `<field>_len`) before its bytes or items,
//! inline at its capacity; an option as a flag (`has_<field>`) before its
//! value; an enum carrying data as its tag before its largest variant's
//! bytes (`<field>_value`). What a value does not use is zero. A type
//! that already has a layout is kept as it is.

use std::collections::BTreeMap;

use crate::{
    layout::{struct_layout, zero_copy},
    model::{AT_CAPACITY, Account, Enum, Field, Kind, Struct, Ty, Variant},
    names::camel_case,
    value::{self, Value},
};

use super::walk::length_bytes;

/// `account` at `capacities` (by path, as [`super::variables`] names
/// them): the fixed-capacity account, named `<name> at capacity`, with
/// the same discriminator.
pub fn account(account: &Account, capacities: &BTreeMap<String, usize>) -> Result<Account, String> {
    let rewrite = Rewrite { capacities };
    let fields = rewrite.fields(&account.record.fields, "", &account.record.ident)?;
    Ok(Account {
        name: format!("{}{AT_CAPACITY}", account.name),
        ident: format!("{}_at_capacity", account.ident),
        discriminator: account.discriminator.clone(),
        kind: Kind::FixedCapacity,
        assumed: false,
        record: Struct {
            fields,
            packed: true,
            ..account.record.clone()
        },
    })
}

/// `record`, a value of `account`'s record, in the fixed-capacity
/// account's type; `Err` names the first field whose length passes its
/// capacity.
pub fn value(
    account: &Account,
    capacities: &BTreeMap<String, usize>,
    record: &Value,
) -> Result<Value, String> {
    let rewrite = Rewrite { capacities };
    let Value::Struct(values) = record else {
        unreachable!("a record is a struct")
    };
    let fields = &account.record.fields;
    rewrite
        .values(fields, values, "", &account.record.ident)
        .map(Value::Struct)
}

struct Rewrite<'a> {
    capacities: &'a BTreeMap<String, usize>,
}

/// A path one step down: a field's name after its parent's.
fn join(path: &str, name: &str) -> String {
    match path {
        "" => name.to_string(),
        _ => format!("{path}.{name}"),
    }
}

/// Whether `ty` is kept as it is: it has a layout already.
fn kept(ty: &Ty) -> bool {
    zero_copy(ty, true).is_ok()
}

impl Rewrite<'_> {
    fn capacity(&self, path: &str) -> Result<usize, String> {
        self.capacities
            .get(path)
            .copied()
            .ok_or_else(|| format!("`{path}` has no capacity (give one with CAPACITY=)"))
    }

    /// The fields `fields` become, in order; `hint` names a struct made
    /// for one of them (`<hint><Field>`).
    fn fields(&self, fields: &[Field], path: &str, hint: &str) -> Result<Vec<Field>, String> {
        let mut out = Vec::new();
        for field in fields {
            let at = join(path, &field.name);
            let hint = format!("{hint}{}", camel_case(&field.name));
            out.extend(self.field(&field.name, &field.ty, &at, &hint)?);
        }
        Ok(out)
    }

    /// The fields one field `name`, a `ty` at `path`, becomes.
    fn field(&self, name: &str, ty: &Ty, path: &str, hint: &str) -> Result<Vec<Field>, String> {
        let one = |ty: Ty| {
            vec![Field {
                name: name.to_string(),
                ty,
            }]
        };
        if kept(ty) {
            return Ok(one(ty.clone()));
        }
        let listed = |capacity: usize, item: Ty, text: bool| {
            vec![
                Field {
                    name: format!("{name}_len"),
                    ty: Ty::Length {
                        bytes: length_bytes(capacity) as u8,
                        capacity,
                        text,
                    },
                },
                Field {
                    name: name.to_string(),
                    ty: Ty::Array(Box::new(item), capacity),
                },
            ]
        };
        let byte = Ty::Int {
            bytes: 1,
            signed: false,
        };
        Ok(match ty {
            Ty::String | Ty::Text(_) => listed(self.capacity(path)?, byte, true),
            Ty::Bytes => listed(self.capacity(path)?, byte, false),
            Ty::Vec(item) | Ty::List { item, .. } => {
                let item = self.single(item, &format!("{path}[]"), &format!("{hint}Item"))?;
                listed(self.capacity(path)?, item, false)
            }
            Ty::Option(item) | Ty::ZeroableOption(item) | Ty::TaggedOption { item, .. } => {
                let mut fields = vec![Field {
                    name: format!("has_{name}"),
                    ty: Ty::Bool,
                }];
                fields.extend(self.field(name, item, path, hint)?);
                fields
            }
            Ty::Struct(s) => one(Ty::Struct(Struct {
                name: s.name.clone(),
                ident: hint.to_string(),
                fields: self.fields(&s.fields, path, hint)?,
                packed: true,
            })),
            Ty::Array(item, n) => one(Ty::Array(
                Box::new(self.single(item, path, &format!("{hint}Item"))?),
                *n,
            )),
            Ty::Enum(e) => {
                let (_, largest) = self.variants(e, path, hint)?;
                vec![
                    Field {
                        name: name.to_string(),
                        ty: Ty::Enum(tags(e, hint)),
                    },
                    Field {
                        name: format!("{name}_value"),
                        ty: Ty::Array(Box::new(byte), largest),
                    },
                ]
            }
            Ty::Map { .. } => {
                return Err(format!(
                    "`{path}` is a map or set: its fixed-capacity layout is sized, not generated"
                ));
            }
            other => unreachable!("{other:?} has a layout"),
        })
    }

    /// `ty` as one type: its fields, in a struct of their own (`hint`)
    /// where it becomes more than one.
    fn single(&self, ty: &Ty, path: &str, hint: &str) -> Result<Ty, String> {
        let mut fields = self.field("value", ty, path, hint)?;
        Ok(if fields.len() == 1 {
            fields.remove(0).ty
        } else {
            Ty::Struct(Struct {
                name: hint.to_string(),
                ident: hint.to_string(),
                fields,
                packed: true,
            })
        })
    }

    /// Each variant of `e` as the struct its bytes are laid out in, and
    /// the largest one's size (what every variant's bytes take).
    fn variants(&self, e: &Enum, path: &str, hint: &str) -> Result<(Vec<Struct>, usize), String> {
        let variants = e
            .variants
            .iter()
            .map(|v| {
                let hint = format!("{hint}{}", camel_case(&v.name));
                Ok(Struct {
                    name: v.name.clone(),
                    fields: self.fields(&v.fields, &join(path, &v.name), &hint)?,
                    ident: hint,
                    packed: true,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let mut largest = 0;
        for s in &variants {
            largest = largest.max(struct_layout(s, true)?.layout.size);
        }
        Ok((variants, largest))
    }

    /// The values `fields`' `values` become, as [`Self::fields`] lays
    /// them out.
    fn values(
        &self,
        fields: &[Field],
        values: &[Value],
        path: &str,
        hint: &str,
    ) -> Result<Vec<Value>, String> {
        let mut out = Vec::new();
        for (field, value) in fields.iter().zip(values) {
            let at = join(path, &field.name);
            let hint = format!("{hint}{}", camel_case(&field.name));
            out.extend(self.value(&field.ty, value, &at, &hint)?);
        }
        Ok(out)
    }

    fn value(&self, ty: &Ty, value: &Value, path: &str, hint: &str) -> Result<Vec<Value>, String> {
        if kept(ty) {
            return Ok(vec![value.clone()]);
        }
        let listed = |items: Vec<Value>, unit: &str, item: &Ty| -> Result<Vec<Value>, String> {
            let capacity = self.capacity(path)?;
            let len = items.len();
            if len > capacity {
                return Err(format!(
                    "`{path}` holds {len} {unit}, past its capacity {capacity}"
                ));
            }
            let zero = zero(item);
            let mut slots = items;
            slots.resize(capacity, zero);
            Ok(vec![Value::Int(len as u128), Value::Array(slots)])
        };
        let bytes = |b: &[u8]| b.iter().map(|b| Value::Int(u128::from(*b))).collect();
        let byte = Ty::Int {
            bytes: 1,
            signed: false,
        };
        match (ty, value) {
            (Ty::String | Ty::Text(_), Value::String(s)) => {
                listed(bytes(s.as_bytes()), "bytes", &byte)
            }
            (Ty::Bytes, Value::Bytes(b)) => listed(bytes(b), "bytes", &byte),
            (Ty::Vec(item) | Ty::List { item, .. }, Value::Vec(items)) => {
                let (path_item, hint_item) = (format!("{path}[]"), format!("{hint}Item"));
                let slot = self.single(item, &path_item, &hint_item)?;
                let items = items
                    .iter()
                    .map(|v| self.single_value(item, v, &path_item, &hint_item))
                    .collect::<Result<Vec<_>, _>>()?;
                listed(items, "items", &slot)
            }
            (
                Ty::Option(item) | Ty::ZeroableOption(item) | Ty::TaggedOption { item, .. },
                Value::Option(inner),
            ) => {
                let mut out = vec![Value::Bool(inner.is_some())];
                match inner {
                    Some(inner) => out.extend(self.value(item, inner, path, hint)?),
                    None => out.extend(
                        self.field("value", item, path, hint)?
                            .iter()
                            .map(|f| zero(&f.ty)),
                    ),
                }
                Ok(out)
            }
            (Ty::Struct(s), Value::Struct(values)) => Ok(vec![Value::Struct(
                self.values(&s.fields, values, path, hint)?,
            )]),
            (Ty::Array(item, _), Value::Array(items)) => {
                let hint = format!("{hint}Item");
                let items = items
                    .iter()
                    .map(|v| self.single_value(item, v, path, &hint))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(vec![Value::Array(items)])
            }
            (Ty::Enum(e), Value::Enum(index, values)) => {
                let (variants, largest) = self.variants(e, path, hint)?;
                let variant: &Variant = &e.variants[*index];
                let laid = &variants[*index];
                let vhint = format!("{hint}{}", camel_case(&variant.name));
                let inner =
                    self.values(&variant.fields, values, &join(path, &variant.name), &vhint)?;
                let mut out = vec![0u8; largest];
                let size = struct_layout(laid, true)?.layout.size;
                value::zero_copy(
                    &Value::Struct(inner),
                    &Ty::Struct(laid.clone()),
                    true,
                    &mut out[..size],
                );
                Ok(vec![
                    Value::Enum(*index, Vec::new()),
                    Value::Array(bytes(&out)),
                ])
            }
            (ty, value) => Err(format!(
                "`{path}`: a value {value:?} of another type than {ty:?}"
            )),
        }
    }

    /// `value` as [`Self::single`] lays out its type.
    fn single_value(
        &self,
        ty: &Ty,
        value: &Value,
        path: &str,
        hint: &str,
    ) -> Result<Value, String> {
        let mut values = self.value(ty, value, path, hint)?;
        Ok(if values.len() == 1 {
            values.remove(0)
        } else {
            Value::Struct(values)
        })
    }
}

/// `e`'s tag alone: a unit enum of its variants (`<hint>Tag`).
fn tags(e: &Enum, hint: &str) -> Enum {
    Enum {
        name: e.name.clone(),
        ident: format!("{hint}Tag"),
        variants: e
            .variants
            .iter()
            .map(|v| Variant {
                name: v.name.clone(),
                fields: Vec::new(),
            })
            .collect(),
        tag: 1,
    }
}

/// The zero value of a fixed-capacity type: what an unused slot holds.
fn zero(ty: &Ty) -> Value {
    match ty {
        Ty::Bool => Value::Bool(false),
        Ty::Float { .. } => Value::Float(0),
        Ty::Pubkey => Value::Pubkey([0; 32]),
        Ty::Array(item, n) => Value::Array(vec![zero(item); *n]),
        Ty::Struct(s) => Value::Struct(s.fields.iter().map(|f| zero(&f.ty)).collect()),
        Ty::Enum(_) => Value::Enum(0, Vec::new()),
        Ty::ZeroableOption(_) | Ty::TaggedOption { .. } => Value::Option(None),
        _ => Value::Int(0),
    }
}

/// `record`, a value of `account`'s record, with every variable field cut
/// to its capacity (a string at a character's boundary, a list to its
/// first items): what the generated instances hold where capacities are
/// set, so every path of the account runs on one record that fits.
pub fn clamp(account: &Account, capacities: &BTreeMap<String, usize>, record: &Value) -> Value {
    clamp_value(&Ty::Struct(account.record.clone()), record, "", capacities)
}

fn clamp_value(ty: &Ty, value: &Value, path: &str, caps: &BTreeMap<String, usize>) -> Value {
    let cap = caps.get(path).copied();
    let fields = |fields: &[Field], values: &[Value], path: &str| -> Vec<Value> {
        fields
            .iter()
            .zip(values)
            .map(|(f, v)| clamp_value(&f.ty, v, &join(path, &f.name), caps))
            .collect()
    };
    match (ty, value) {
        (Ty::String | Ty::Text(_), Value::String(s)) => {
            let mut end = cap.unwrap_or(s.len()).min(s.len());
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            Value::String(s[..end].to_string())
        }
        (Ty::Bytes, Value::Bytes(b)) => {
            Value::Bytes(b[..cap.unwrap_or(b.len()).min(b.len())].to_vec())
        }
        (Ty::Vec(item) | Ty::List { item, .. }, Value::Vec(items)) => {
            let keep = cap.unwrap_or(items.len()).min(items.len());
            let item_path = format!("{path}[]");
            Value::Vec(
                items[..keep]
                    .iter()
                    .map(|v| clamp_value(item, v, &item_path, caps))
                    .collect(),
            )
        }
        (Ty::Map { .. }, Value::Vec(entries)) => {
            Value::Vec(entries[..cap.unwrap_or(entries.len()).min(entries.len())].to_vec())
        }
        (
            Ty::Option(item) | Ty::ZeroableOption(item) | Ty::TaggedOption { item, .. },
            Value::Option(Some(inner)),
        ) => Value::Option(Some(Box::new(clamp_value(item, inner, path, caps)))),
        (Ty::Struct(s), Value::Struct(values)) => Value::Struct(fields(&s.fields, values, path)),
        (Ty::Enum(e), Value::Enum(index, values)) => {
            let variant = &e.variants[*index];
            Value::Enum(
                *index,
                fields(&variant.fields, values, &join(path, &variant.name)),
            )
        }
        (Ty::Array(item, _), Value::Array(items)) => Value::Array(
            items
                .iter()
                .map(|v| clamp_value(item, v, path, caps))
                .collect(),
        ),
        _ => value.clone(),
    }
}

/// In a fixed-capacity record's bytes, the first top-level length that
/// can be written past its capacity: its offset, and the bytes of a
/// length one past it (what a program must refuse). `None` where every
/// length's bytes hold no more than its capacity.
pub fn past_capacity(record: &Struct) -> Option<(usize, Vec<u8>)> {
    let layout = struct_layout(record, true).ok()?;
    record
        .fields
        .iter()
        .zip(&layout.offsets)
        .find_map(|(field, &at)| match field.ty {
            Ty::Length {
                bytes, capacity, ..
            } => {
                let past = capacity as u128 + 1;
                let bytes = usize::from(bytes);
                (past < 1u128 << (8 * bytes)).then(|| (at, past.to_le_bytes()[..bytes].to_vec()))
            }
            _ => None,
        })
}
