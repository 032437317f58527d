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
    BytesEncoding, DefinedTypeNode, DiscriminatorNode, HasKind as _, InstructionInputValueNode,
    NestedTypeNode, ProgramNode, StructFieldTypeNode, StructTypeNode, TypeNode, ValueNode,
};

use super::types::{
    Account, Count, Dialect, Event, Field, Instruction, Kind, Program, Struct, Ty, Unsupported,
    encoded_len,
};
use crate::input;

mod ty;

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
        address: Some(program.public_key.to_string()).filter(|a| !a.is_empty()),
        dialect: Dialect::Codama,
        accounts,
        instructions,
        events,
    }
}

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
