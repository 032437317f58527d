//! A Codama type node as a model type: numbers by width and endianness,
//! prefixes, strings, options, lists, maps and enums, each refused by name
//! where the benchmark does not lay it out.

use codama_nodes::{
    BytesEncoding, CountNode, Endianness, EnumTypeNode, EnumVariantTypeNode, HasKind as _,
    NestedTypeNode, NumberFormat, NumberTypeNode, TypeNode,
};

use super::Resolver;
use crate::model::types::{Count, Enum, Field, MAX_DEPTH, Struct, Ty, Variant, encoded_len, map};

/// A map's or set's count: borsh's `u32` prefix is the one make idl
/// generates maps for.
fn map_count(count: &CountNode) -> Result<(), String> {
    match count {
        CountNode::Prefixed(p) if matches!(prefix(nested_number(&p.prefix)?)?, Count::Prefix(4)) => {
            Ok(())
        }
        _ => Err("a map or set counted otherwise than by a `u32` prefix; make idl generates borsh's maps".into()),
    }
}

impl Resolver<'_> {
    /// A tuple's items as fields named by their index; `name` names an
    /// inline type among them (`{name}_{index}`).
    fn tuple_fields(
        &self,
        items: &[TypeNode],
        name: &str,
        depth: usize,
    ) -> Result<Vec<Field>, String> {
        items
            .iter()
            .enumerate()
            .map(|(i, item)| {
                Ok(Field {
                    name: i.to_string(),
                    ty: self.ty(item, &format!("{name}_{i}"), depth + 1)?,
                })
            })
            .collect()
    }

    /// `node` as a type; `name` names an inline struct, tuple or enum.
    pub(super) fn ty(&self, node: &TypeNode, name: &str, depth: usize) -> Result<Ty, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "nested more than {MAX_DEPTH} deep (a type that contains itself?)"
            ));
        }
        let u8_ty = || Ty::Int {
            bytes: 1,
            signed: false,
        };
        match node {
            TypeNode::Number(n) => number(n),
            TypeNode::Amount(a) => number(nested_number(&a.number)?),
            TypeNode::SolAmount(a) => number(nested_number(&a.number)?),
            TypeNode::DateTime(d) => number(nested_number(&d.number)?),
            TypeNode::Boolean(b) => match nested_number(&b.size)?.format {
                NumberFormat::U8 => Ok(Ty::Bool),
                other => Err(format!(
                    "a boolean of type {other:?}; make idl lays out one-byte booleans"
                )),
            },
            TypeNode::PublicKey(_) => Ok(Ty::Pubkey),
            TypeNode::Bytes(_) => Ok(Ty::List {
                item: Box::new(u8_ty()),
                count: Count::Remainder,
            }),
            TypeNode::String(s) => {
                utf8(s.encoding)?;
                Ok(Ty::Text(Count::Remainder))
            }
            TypeNode::FixedSize(f) => match &*f.r#type {
                TypeNode::Bytes(_) => Ok(Ty::Array(Box::new(u8_ty()), f.size)),
                TypeNode::String(s) => {
                    utf8(s.encoding)?;
                    Ok(Ty::Array(Box::new(u8_ty()), f.size))
                }
                inner => {
                    let ty = self.ty(inner, name, depth + 1)?;
                    match encoded_len(&ty) {
                        Some(len) if len == f.size => Ok(ty),
                        _ => Err(format!(
                            "a `fixedSizeTypeNode` of {} bytes around a `{}` of another size; make idl pads or truncates bytes and strings only",
                            f.size,
                            inner.kind()
                        )),
                    }
                }
            },
            TypeNode::SizePrefix(p) => {
                let count = prefix(nested_number(&p.prefix)?)?;
                match &*p.r#type {
                    TypeNode::String(s) => {
                        utf8(s.encoding)?;
                        Ok(match count {
                            Count::Prefix(4) => Ty::String,
                            count => Ty::Text(count),
                        })
                    }
                    TypeNode::Bytes(_) => Ok(match count {
                        Count::Prefix(4) => Ty::Bytes,
                        count => Ty::List {
                            item: Box::new(u8_ty()),
                            count,
                        },
                    }),
                    inner => Err(format!(
                        "a `sizePrefixTypeNode` around a `{}`; make idl prefixes bytes and strings only",
                        inner.kind()
                    )),
                }
            }
            TypeNode::Option(o) => {
                let item = Box::new(self.ty(&o.item, name, depth + 1)?);
                let tag = match prefix(nested_number(&o.prefix)?)? {
                    Count::Prefix(bytes) => bytes,
                    _ => return Err("an option whose tag is a `shortU16`".into()),
                };
                let fixed = o.fixed.unwrap_or(false);
                if fixed && encoded_len(&item).is_none() {
                    return Err("a fixed option around an item of no fixed size".into());
                }
                Ok(if tag == 1 && !fixed {
                    Ty::Option(item)
                } else {
                    Ty::TaggedOption { tag, fixed, item }
                })
            }
            TypeNode::ZeroableOption(z) => {
                if z.zero_value.is_some() {
                    return Err(
                        "a zeroable option with its own zero value; make idl reads all-zero `None`s"
                            .into(),
                    );
                }
                let item = self.ty(&z.item, name, depth + 1)?;
                if encoded_len(&item).is_none() {
                    return Err("a zeroable option around an item of no fixed size".into());
                }
                Ok(Ty::ZeroableOption(Box::new(item)))
            }
            TypeNode::Enum(e) => self.enumeration(e, name, depth),
            TypeNode::Map(m) => {
                let key = self.ty(&m.key, name, depth + 1)?;
                let value = self.ty(&m.value, name, depth + 1)?;
                map_count(&m.count)?;
                map(key, Some(value), false)
            }
            TypeNode::Set(set) => {
                let item = self.ty(&set.item, name, depth + 1)?;
                map_count(&set.count)?;
                map(item, None, false)
            }
            TypeNode::Array(a) => {
                let item = Box::new(self.ty(&a.item, name, depth + 1)?);
                Ok(match &*a.count {
                    CountNode::Fixed(n) => Ty::Array(item, n.value as usize),
                    CountNode::Prefixed(p) => match prefix(nested_number(&p.prefix)?)? {
                        Count::Prefix(4) => Ty::Vec(item),
                        count => Ty::List { item, count },
                    },
                    CountNode::Remainder(_) => Ty::List {
                        item,
                        count: Count::Remainder,
                    },
                })
            }
            TypeNode::Tuple(t) => Ok(Ty::Struct(Struct {
                name: name.to_string(),
                ident: String::new(),
                fields: self.tuple_fields(&t.items, name, depth)?,
                packed: true,
            })),
            TypeNode::Struct(s) => Ok(Ty::Struct(self.fields_struct(
                name,
                &s.fields.iter().collect::<Vec<_>>(),
                depth,
            )?)),
            TypeNode::Link(link) => {
                let program = link
                    .program
                    .as_ref()
                    .map(|p| p.name.to_string())
                    .unwrap_or_default();
                let def = self
                    .types
                    .get(&(program.clone(), link.name.to_string()))
                    .or_else(|| self.types.get(&(String::new(), link.name.to_string())))
                    .ok_or_else(|| {
                        format!(
                            "a link to `{}`, which is not a defined type",
                            link.name.as_str()
                        )
                    })?;
                self.ty(&def.r#type, &def.name, depth + 1)
                    .map_err(|e| format!("type `{}`: {e}", def.name.as_str()))
            }
            other => Err(format!(
                "a `{}`, which make idl does not lay out",
                other.kind()
            )),
        }
    }

    fn enumeration(&self, e: &EnumTypeNode, name: &str, depth: usize) -> Result<Ty, String> {
        let tag = match prefix(nested_number(&e.size)?)? {
            Count::Prefix(bytes) if bytes <= 4 => bytes,
            _ => return Err("an enum whose tag is not a u8, u16 or u32".into()),
        };
        if e.variants.is_empty() {
            return Err(format!(
                "enum `{name}` has no variants: no value of it exists"
            ));
        }
        let variants = e
            .variants
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let (variant, discriminator) = match v {
                    EnumVariantTypeNode::Empty(v) => (
                        Variant {
                            name: v.name.to_string(),
                            fields: Vec::new(),
                        },
                        v.discriminator,
                    ),
                    EnumVariantTypeNode::Tuple(v) => {
                        let NestedTypeNode::Value(tuple) = &v.tuple else {
                            return Err(format!("variant `{}` is a wrapped tuple", v.name.as_str()));
                        };
                        let fields = self.tuple_fields(
                            &tuple.items,
                            &format!("{name}_{}", v.name.as_str()),
                            depth,
                        )?;
                        (
                            Variant {
                                name: v.name.to_string(),
                                fields,
                            },
                            v.discriminator,
                        )
                    }
                    EnumVariantTypeNode::Struct(v) => {
                        let s = self.nested_struct(&v.r#struct, &v.name)?;
                        let inner = self.fields_struct(
                            &format!("{name}_{}", v.name.as_str()),
                            &s.fields.iter().collect::<Vec<_>>(),
                            depth,
                        )?;
                        (
                            Variant {
                                name: v.name.to_string(),
                                fields: inner.fields,
                            },
                            v.discriminator,
                        )
                    }
                };
                match discriminator {
                    Some(d) if d as usize != i => Err(format!(
                        "variant `{}` has the tag {d}, not its index {i}; make idl numbers variants in order",
                        variant.name
                    )),
                    _ => Ok(variant),
                }
            })
            .collect::<Result<_, String>>()?;
        Ok(Ty::Enum(Enum {
            name: name.to_string(),
            ident: String::new(),
            variants,
            tag,
        }))
    }
}

/// A number node as a type.
fn number(n: &NumberTypeNode) -> Result<Ty, String> {
    use NumberFormat::*;
    let (bytes, signed) = match n.format {
        U8 => (1, false),
        U16 => (2, false),
        U32 => (4, false),
        U64 => (8, false),
        U128 => (16, false),
        I8 => (1, true),
        I16 => (2, true),
        I32 => (4, true),
        I64 => (8, true),
        I128 => (16, true),
        ShortU16 => return Ok(Ty::ShortU16),
        F32 | F64 if n.endian == Endianness::Be => {
            return Err("a big-endian float, which make idl does not lay out".into());
        }
        F32 => return Ok(Ty::Float { bytes: 4 }),
        F64 => return Ok(Ty::Float { bytes: 8 }),
    };
    Ok(if n.endian == Endianness::Be && bytes > 1 {
        Ty::BigEndian { bytes, signed }
    } else {
        Ty::Int { bytes, signed }
    })
}

/// A number node with no wrapper around it.
fn nested_number(node: &NestedTypeNode<NumberTypeNode>) -> Result<&NumberTypeNode, String> {
    match node {
        NestedTypeNode::Value(n) => Ok(n),
        other => Err(format!(
            "a number wrapped in a `{}`, which make idl does not lay out",
            other.kind()
        )),
    }
}

/// A count's or tag's prefix: a little-endian unsigned number, or a
/// `shortU16`.
fn prefix(n: &NumberTypeNode) -> Result<Count, String> {
    use NumberFormat::*;
    let bytes = match n.format {
        ShortU16 => return Ok(Count::ShortU16),
        U8 => 1,
        U16 => 2,
        U32 => 4,
        U64 => 8,
        other => return Err(format!("a prefix or tag of type {other:?}")),
    };
    if n.endian == Endianness::Be && bytes > 1 {
        return Err("a big-endian prefix or tag, which make idl does not lay out".into());
    }
    Ok(Count::Prefix(bytes))
}

fn utf8(encoding: BytesEncoding) -> Result<(), String> {
    match encoding {
        BytesEncoding::Utf8 => Ok(()),
        other => Err(format!(
            "a string in {other:?}; make idl lays out UTF-8 strings"
        )),
    }
}
