//! A Codama tree resolved into the model. Codama says which bytes, not
//! which serializer: every number's width and endianness, every prefix's
//! type, fixed and zeroable options, enum tag widths. Each becomes a
//! [`Ty`] that says the same; a discriminator field at the start of the
//! data becomes the bytes the data starts with, and a declared size is
//! checked against the computed layout. A node the benchmark does not lay
//! out refuses its account, instruction or event, naming the node and the
//! path to it; the others still run.

use std::collections::BTreeMap;

use codama_nodes::{
    BytesEncoding, CountNode, DefinedTypeNode, DiscriminatorNode, Endianness, EnumTypeNode,
    EnumVariantTypeNode, HasKind as _, InstructionInputValueNode, NestedTypeNode, NumberFormat,
    NumberTypeNode, ProgramNode, StructFieldTypeNode, StructTypeNode, TypeNode, ValueNode,
};

use super::types::{
    Account, Count, Dialect, Enum, Event, Field, Instruction, Kind, MAX_DEPTH, Program, Struct, Ty,
    Unsupported, Variant, encoded_len, map,
};
use crate::input;

/// Resolves every account, instruction and event of `codama`.
pub fn resolve(codama: &input::Codama) -> Program {
    let root = &codama.root;
    let resolver = Resolver::new(&root.program, &root.additional_programs);
    let program = &root.program;
    let refuse = |name: &str| {
        let name = name.to_string();
        move |reason: String| Unsupported { name, reason }
    };
    let accounts = program
        .accounts
        .iter()
        .map(|account| {
            let name = account.name.as_str();
            let data = resolver
                .nested_struct(&account.data, name)
                .map_err(refuse(name))?;
            let record = resolver
                .record(name, data, &account.discriminators, account.size)
                .map_err(refuse(name))?;
            Ok(Account {
                name: name.to_string(),
                ident: String::new(),
                discriminator: record.discriminator,
                kind: Kind::Codama,
                assumed: false,
                record: record.fields,
            })
        })
        .collect();
    let instructions = program
        .instructions
        .iter()
        .map(|ix| {
            let name = ix.name.as_str();
            let args = StructTypeNode {
                fields: ix
                    .arguments
                    .iter()
                    .map(|arg| StructFieldTypeNode {
                        default_value: Box::new((*arg.default_value).clone().and_then(value_node)),
                        ..StructFieldTypeNode::new(arg.name.clone(), (*arg.r#type).clone())
                    })
                    .collect(),
            };
            let record = resolver
                .record(&resolver.args_name(name), &args, &ix.discriminators, None)
                .map_err(refuse(name))?;
            if record.discriminator.is_empty() {
                return Err(refuse(name)(
                    "no discriminator at the start of its data; one dispatch reads one".into(),
                ));
            }
            Ok(Instruction {
                name: name.to_string(),
                ident: String::new(),
                discriminator: record.discriminator,
                args: record.fields,
            })
        })
        .collect();
    let events = program
        .events
        .iter()
        .map(|event| {
            let name = event.name.as_str();
            let data = match &*event.data {
                TypeNode::Struct(s) => s,
                other => {
                    return Err(refuse(name)(format!(
                        "its data is a `{}`, not a struct",
                        other.kind()
                    )));
                }
            };
            let record = resolver
                .record(name, data, &event.discriminators, None)
                .map_err(refuse(name))?;
            Ok(Event {
                name: name.to_string(),
                ident: String::new(),
                discriminator: record.discriminator,
                record: record.fields,
            })
        })
        .collect();
    Program {
        name: program.name.to_string(),
        path: codama.path.clone(),
        dialect: Dialect::Codama,
        accounts,
        instructions,
        events,
    }
}

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

/// An instruction argument's default as a struct field's, where it is a
/// plain value (a discriminator's number or bytes).
fn value_node(value: InstructionInputValueNode) -> Option<ValueNode> {
    match value {
        InstructionInputValueNode::NumberValue(n) => Some(ValueNode::Number(n)),
        InstructionInputValueNode::BytesValue(b) => Some(ValueNode::Bytes(b)),
        _ => None,
    }
}

/// A record and the bytes it starts with.
struct Record {
    discriminator: Vec<u8>,
    fields: Struct,
}

struct Resolver<'a> {
    /// Defined types by program and name (the main program's under `""`).
    types: BTreeMap<(String, String), &'a DefinedTypeNode>,
    /// Names a generated args struct must not take.
    taken: Vec<String>,
}

impl<'a> Resolver<'a> {
    fn new(program: &'a ProgramNode, additional: &'a [ProgramNode]) -> Self {
        let mut types = BTreeMap::new();
        for def in &program.defined_types {
            types.insert((String::new(), def.name.to_string()), def);
        }
        for other in additional {
            for def in &other.defined_types {
                types.insert((other.name.to_string(), def.name.to_string()), def);
            }
        }
        let taken = program
            .defined_types
            .iter()
            .map(|d| d.name.to_string())
            .chain(program.accounts.iter().map(|a| a.name.to_string()))
            .collect();
        Self { types, taken }
    }

    /// `<Name>Args`, or `<Name>InstructionArgs` where a type has that name.
    fn args_name(&self, instruction: &str) -> String {
        let args = format!("{instruction}Args");
        if self.taken.iter().any(|t| t.eq_ignore_ascii_case(&args)) {
            format!("{instruction}InstructionArgs")
        } else {
            args
        }
    }

    fn nested_struct(
        &self,
        node: &'a NestedTypeNode<StructTypeNode>,
        name: &str,
    ) -> Result<&'a StructTypeNode, String> {
        match node {
            NestedTypeNode::Value(s) => Ok(s),
            other => Err(format!(
                "`{name}`'s data is wrapped in a `{}`, which make idl does not lay out",
                other.kind()
            )),
        }
    }

    /// `data` as a record: the discriminators that start the data taken
    /// off as its bytes, every other discriminator checked, and `size` (or
    /// a size discriminator) held against the layout.
    fn record(
        &self,
        name: &str,
        data: &StructTypeNode,
        discriminators: &[DiscriminatorNode],
        size: Option<u64>,
    ) -> Result<Record, String> {
        let mut fields: Vec<&StructFieldTypeNode> = data.fields.iter().collect();
        let mut prefix = Vec::new();
        let mut sizes: Vec<u64> = size.into_iter().collect();
        for discriminator in discriminators {
            match discriminator {
                DiscriminatorNode::Size(s) => sizes.push(s.size),
                DiscriminatorNode::Field(f) => {
                    let at = fields
                        .iter()
                        .position(|field| field.name == f.name)
                        .ok_or_else(|| {
                            format!(
                                "its discriminator names a field `{}` it does not have",
                                f.name.as_str()
                            )
                        })?;
                    if f.offset as usize != prefix.len() || at != 0 {
                        return Err(format!(
                            "its discriminator field `{}` is at offset {}, after other fields; make idl checks a discriminator that starts the data",
                            f.name.as_str(),
                            f.offset
                        ));
                    }
                    let field = fields.remove(0);
                    let ty = self
                        .ty(&field.r#type, name, 0)
                        .map_err(|e| format!("field `{}`: {e}", field.name.as_str()))?;
                    let value = (*field.default_value).as_ref().ok_or_else(|| {
                        format!(
                            "its discriminator field `{}` has no default value",
                            f.name.as_str()
                        )
                    })?;
                    prefix.extend(constant(value, &ty).map_err(|e| {
                        format!("its discriminator field `{}`: {e}", f.name.as_str())
                    })?);
                }
                DiscriminatorNode::Constant(c) => {
                    if c.offset as usize != prefix.len() {
                        return Err(format!(
                            "a constant discriminator at offset {}; make idl checks a discriminator that starts the data",
                            c.offset
                        ));
                    }
                    let ty = self.ty(&c.constant.r#type, name, 0)?;
                    let bytes = constant(&c.constant.value, &ty)?;
                    // The bytes are the first field's, where the data has one
                    // of their length: the field is the discriminator.
                    let first = fields
                        .first()
                        .map(|f| self.ty(&f.r#type, name, 0))
                        .transpose()?
                        .and_then(|ty| encoded_len(&ty));
                    if first != Some(bytes.len()) {
                        return Err(format!(
                            "a constant discriminator of {} bytes that is not its first field",
                            bytes.len()
                        ));
                    }
                    fields.remove(0);
                    prefix.extend(bytes);
                }
            }
        }
        let record = self.fields_struct(name, &fields, 0)?;
        remainder_last(&record, true)?;
        let computed = encoded_len(&Ty::Struct(record.clone())).map(|len| prefix.len() + len);
        for declared in sizes {
            match computed {
                Some(len) if len as u64 == declared => {}
                Some(len) => {
                    return Err(format!(
                        "the IDL gives its size as {declared} bytes, its fields add up to {len}"
                    ));
                }
                None => {
                    return Err(format!(
                        "the IDL gives its size as {declared} bytes, its fields have no fixed size"
                    ));
                }
            }
        }
        Ok(Record {
            discriminator: prefix,
            fields: record,
        })
    }

    fn fields_struct(
        &self,
        name: &str,
        fields: &[&StructFieldTypeNode],
        depth: usize,
    ) -> Result<Struct, String> {
        Ok(Struct {
            name: name.to_string(),
            ident: String::new(),
            fields: fields
                .iter()
                .map(|f| {
                    let ty = self
                        .ty(&f.r#type, &format!("{name}_{}", f.name.as_str()), depth + 1)
                        .map_err(|e| format!("type `{name}`, field `{}`: {e}", f.name.as_str()))?;
                    Ok(Field {
                        name: f.name.to_string(),
                        ty,
                    })
                })
                .collect::<Result<_, String>>()?,
            packed: true,
        })
    }

    /// `node` as a type; `name` names an inline struct, tuple or enum.
    fn ty(&self, node: &TypeNode, name: &str, depth: usize) -> Result<Ty, String> {
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
                fields: t
                    .items
                    .iter()
                    .enumerate()
                    .map(|(i, item)| {
                        Ok(Field {
                            name: i.to_string(),
                            ty: self.ty(item, &format!("{name}_{i}"), depth + 1)?,
                        })
                    })
                    .collect::<Result<_, String>>()?,
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
                        let fields = tuple
                            .items
                            .iter()
                            .enumerate()
                            .map(|(i, item)| {
                                Ok(Field {
                                    name: i.to_string(),
                                    ty: self.ty(item, &format!("{name}_{}_{i}", v.name.as_str()), depth + 1)?,
                                })
                            })
                            .collect::<Result<_, String>>()?;
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

/// A default value's bytes in `ty`: a number in its width, or bytes.
fn constant(value: &ValueNode, ty: &Ty) -> Result<Vec<u8>, String> {
    use codama_nodes::Number;
    match (value, ty) {
        (ValueNode::Number(n), Ty::Int { bytes, .. } | Ty::BigEndian { bytes, .. }) => {
            let wide = match n.number {
                Number::UnsignedInteger(v) => u128::from(v),
                Number::SignedInteger(v) => v as i128 as u128,
                Number::Float(_) => return Err("a float default".into()),
            };
            let width = usize::from(*bytes);
            Ok(match ty {
                Ty::BigEndian { .. } => wide.to_be_bytes()[16 - width..].to_vec(),
                _ => wide.to_le_bytes()[..width].to_vec(),
            })
        }
        (ValueNode::Bytes(b), _) => {
            use base64::Engine as _;
            let bytes = match b.encoding {
                BytesEncoding::Utf8 => b.data.as_bytes().to_vec(),
                BytesEncoding::Base16 => (0..b.data.len())
                    .step_by(2)
                    .map(|i| u8::from_str_radix(b.data.get(i..i + 2).unwrap_or("zz"), 16))
                    .collect::<Result<_, _>>()
                    .map_err(|_| format!("`{}` is not base16", b.data))?,
                BytesEncoding::Base64 => base64::engine::general_purpose::STANDARD
                    .decode(&b.data)
                    .map_err(|e| format!("`{}` is not base64: {e}", b.data))?,
                BytesEncoding::Base58 => {
                    return Err("a base58 default, which make idl does not decode".into());
                }
            };
            Ok(bytes)
        }
        (other, _) => Err(format!(
            "a default `{}` make idl does not read as bytes",
            other.kind()
        )),
    }
}

/// Refuses a list or string running to the end of the data anywhere but
/// as the record's last field (`last`: where the data ends there).
fn remainder_last(record: &Struct, last: bool) -> Result<(), String> {
    for (i, field) in record.fields.iter().enumerate() {
        let at_end = last && i + 1 == record.fields.len();
        let found = match &field.ty {
            Ty::List {
                count: Count::Remainder,
                item,
            } => !at_end || holds_remainder(item),
            Ty::Text(Count::Remainder) => !at_end,
            ty => holds_remainder(ty),
        };
        if found {
            return Err(format!(
                "field `{}` runs to the end of the data but is not the last thing in it",
                field.name
            ));
        }
    }
    Ok(())
}

/// Whether a remainder count is anywhere inside `ty`.
fn holds_remainder(ty: &Ty) -> bool {
    match ty {
        Ty::List {
            count: Count::Remainder,
            ..
        }
        | Ty::Text(Count::Remainder) => true,
        Ty::List { item, .. }
        | Ty::Array(item, _)
        | Ty::Vec(item)
        | Ty::Option(item)
        | Ty::TaggedOption { item, .. }
        | Ty::ZeroableOption(item) => holds_remainder(item),
        Ty::Struct(s) => s.fields.iter().any(|f| holds_remainder(&f.ty)),
        Ty::Enum(e) => e
            .variants
            .iter()
            .flat_map(|v| &v.fields)
            .any(|f| holds_remainder(&f.ty)),
        Ty::Map { key, value, .. } => {
            holds_remainder(key) || value.as_deref().is_some_and(holds_remainder)
        }
        _ => false,
    }
}
