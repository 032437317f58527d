//! An Anchor or Shank IDL (spec or legacy) resolved into the model: every
//! defined type in place, generics substituted, each account's layout
//! kind decided; a Codama file is resolved by [`super::codama`]. Then, for
//! every dialect, the instructions' dispatch checked and the identifiers
//! assigned.

use anchor_lang_idl_spec::{
    IdlArrayLen, IdlDefinedFields, IdlGenericArg, IdlRepr, IdlSerialization, IdlType, IdlTypeDef,
    IdlTypeDefGeneric, IdlTypeDefTy,
};

use std::collections::BTreeMap;

use super::{codama, idents, types::*};
use crate::input::{Assumptions, Idl, Parsed};

/// Resolves every account, instruction and event of `idl`.
pub fn resolve(idl: &Idl, assumptions: &Assumptions) -> Program {
    let mut program = match idl {
        Idl::Anchor(parsed) => resolve_anchor(parsed, assumptions),
        Idl::Codama(codama) => codama::resolve(codama),
    };
    check_dispatch(&mut program.instructions);
    idents::assign(&mut program);
    program
}

/// What one program's dispatch can tell apart: it reads the shortest
/// discriminator, and a second dispatch reads the rest of the longer ones
/// (an extension's byte, then the instruction's). NoRow, each with the
/// other instruction named: a discriminator another already has; a longer
/// one whose start is another's whole discriminator; a longer one whose
/// length differs from the others that start alike.
fn check_dispatch(instructions: &mut [Result<Instruction, Unsupported>]) {
    let hex = |bytes: &[u8]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
    let Some(len) = instructions
        .iter()
        .flatten()
        .map(|ix| ix.discriminator.len())
        .min()
    else {
        return;
    };
    // The usual length after each longer start: the most common.
    let mut lengths = BTreeMap::<Vec<u8>, BTreeMap<usize, usize>>::new();
    for ix in instructions.iter().flatten() {
        if ix.discriminator.len() > len {
            *lengths
                .entry(ix.discriminator[..len].to_vec())
                .or_default()
                .entry(ix.discriminator.len())
                .or_default() += 1;
        }
    }
    let whole: BTreeMap<Vec<u8>, String> = instructions
        .iter()
        .flatten()
        .filter(|ix| ix.discriminator.len() == len)
        .map(|ix| (ix.discriminator.clone(), ix.name.clone()))
        .rev()
        .collect();
    let mut seen = BTreeMap::<Vec<u8>, String>::new();
    for item in instructions.iter_mut() {
        let Ok(ix) = item else { continue };
        let bytes = &ix.discriminator;
        let start = &bytes[..len];
        let reason = if let Some(first) = seen.get(bytes) {
            Some(format!(
                "its discriminator `{}` is `{first}`'s too: one dispatch cannot tell them apart",
                hex(bytes)
            ))
        } else if bytes.len() > len
            && let Some(other) = whole.get(start)
        {
            Some(format!(
                "its discriminator `{}` starts with `{}`, the whole of `{other}`'s: one dispatch cannot tell them apart",
                hex(bytes),
                hex(start)
            ))
        } else if bytes.len() > len {
            let usual = lengths[start]
                .iter()
                .max_by_key(|(l, count)| (**count, std::cmp::Reverse(**l)))
                .map(|(l, _)| *l)
                .unwrap_or(len);
            (bytes.len() != usual).then(|| {
                format!(
                    "its discriminator is {} bytes where the others that start with `{}` are {usual}; one dispatch reads one length after a start",
                    bytes.len(),
                    hex(start)
                )
            })
        } else {
            None
        };
        match reason {
            Some(reason) => {
                *item = Err(Unsupported {
                    name: ix.name.clone(),
                    reason,
                })
            }
            None => {
                seen.insert(bytes.clone(), ix.name.clone());
            }
        }
    }
}

/// Resolves every account of an Anchor-shaped file.
fn resolve_anchor(parsed: &Parsed, assumptions: &Assumptions) -> Program {
    let accounts = parsed
        .accounts
        .iter()
        .map(|declared| {
            let refuse = |reason: String| Unsupported {
                name: declared.name.clone(),
                reason,
            };
            let def = match parsed.types.get(&declared.name) {
                Some(Ok(def)) => def,
                Some(Err(e)) => {
                    return Err(refuse(format!(
                        "its type `{}` does not parse as an IDL type: {e}",
                        declared.name
                    )));
                }
                None => {
                    return Err(refuse(format!(
                        "no type named `{}` in `types`",
                        declared.name
                    )));
                }
            };
            let (kind, assumed) = kind_of(parsed.dialect, def, &declared.name, assumptions);
            let resolver = Resolver { parsed };
            let record = match resolver.def(def, 0) {
                Ok(Ty::Struct(record)) => record,
                Ok(_) => return Err(refuse(format!("`{}` is not a struct", declared.name))),
                Err(reason) => return Err(refuse(reason)),
            };
            Ok(Account {
                name: declared.name.clone(),
                ident: String::new(),
                discriminator: declared.discriminator.clone(),
                kind,
                assumed,
                record,
            })
        })
        .collect();
    let resolver = Resolver { parsed };
    Program {
        name: parsed.program.clone(),
        path: parsed.path.clone(),
        address: parsed.address.clone(),
        dialect: parsed.dialect.into(),
        accounts,
        instructions: instructions(parsed, &resolver),
        events: parsed
            .events
            .iter()
            .map(|declared| {
                let refuse = |reason: String| Unsupported {
                    name: declared.name.clone(),
                    reason,
                };
                let def = match &declared.fields {
                    Some(Ok(def)) => def,
                    Some(Err(e)) => return Err(refuse(format!("its fields do not parse: {e}"))),
                    None => match parsed.types.get(&declared.name) {
                        Some(Ok(def)) => def,
                        Some(Err(e)) => {
                            return Err(refuse(format!(
                                "its type `{}` does not parse as an IDL type: {e}",
                                declared.name
                            )));
                        }
                        None => {
                            return Err(refuse(format!(
                                "no type named `{}` in `types`",
                                declared.name
                            )));
                        }
                    },
                };
                match resolver.def(def, 0) {
                    Ok(Ty::Struct(record)) => Ok(Event {
                        name: declared.name.clone(),
                        ident: String::new(),
                        discriminator: declared.discriminator.clone(),
                        record,
                    }),
                    Ok(_) => Err(refuse(format!("`{}` is not a struct", declared.name))),
                    Err(reason) => Err(refuse(reason)),
                }
            })
            .collect(),
    }
}

/// Every instruction resolved, or refused with its reason. One dispatch
/// reads one discriminator length: an instruction whose discriminator has
/// another length than most of the program's is refused.
fn instructions(parsed: &Parsed, resolver: &Resolver) -> Vec<Result<Instruction, Unsupported>> {
    let mut lengths = std::collections::BTreeMap::<usize, usize>::new();
    for declared in &parsed.instructions {
        if let Ok(d) = &declared.discriminator {
            *lengths.entry(d.len()).or_default() += 1;
        }
    }
    let usual = lengths
        .iter()
        .max_by_key(|(len, count)| (**count, std::cmp::Reverse(**len)))
        .map(|(len, _)| *len);
    parsed
        .instructions
        .iter()
        .map(|declared| {
            let refuse = |reason: String| Unsupported {
                name: declared.name.clone(),
                reason,
            };
            let discriminator = declared.discriminator.clone().map_err(refuse)?;
            match discriminator.len() {
                0 => return Err(refuse("an empty discriminator".into())),
                len if Some(len) != usual || len > 8 => {
                    return Err(refuse(format!(
                        "its discriminator is {len} bytes where the program's others are {}; one dispatch reads one length, of at most 8 bytes",
                        usual.unwrap_or(0)
                    )));
                }
                _ => {}
            }
            let def = declared
                .args
                .as_ref()
                .map_err(|e| refuse(format!("its arguments do not parse: {e}")))?;
            let args = resolver.struct_def(def, 0).map_err(refuse)?;
            Ok(Instruction {
                name: declared.name.clone(),
                ident: String::new(),
                discriminator,
                args,
            })
        })
        .collect()
}

/// The account's kind: the IDL's `serialization` and `repr` in the spec,
/// the user's lists for legacy files (borsh unless named).
fn kind_of(
    dialect: AnchorDialect,
    def: &IdlTypeDef,
    name: &str,
    assumptions: &Assumptions,
) -> (Kind, bool) {
    let packed_repr = matches!(
        &def.repr,
        Some(IdlRepr::C(m)) | Some(IdlRepr::Rust(m)) if m.packed
    );
    let listed = |list: &[String]| list.iter().any(|n| n == name);
    match dialect {
        AnchorDialect::Anchor => match def.serialization {
            IdlSerialization::Bytemuck | IdlSerialization::BytemuckUnsafe => (
                Kind::ZeroCopy {
                    packed: packed_repr,
                },
                false,
            ),
            _ => (Kind::Borsh, false),
        },
        AnchorDialect::LegacyAnchor | AnchorDialect::Shank => {
            if listed(&assumptions.zero_copy) || listed(&assumptions.packed) {
                (
                    Kind::ZeroCopy {
                        packed: listed(&assumptions.packed),
                    },
                    true,
                )
            } else {
                (Kind::Borsh, true)
            }
        }
    }
}

struct Resolver<'a> {
    parsed: &'a Parsed,
}

impl Resolver<'_> {
    fn def(&self, def: &IdlTypeDef, depth: usize) -> Result<Ty, String> {
        if let Some(generic) = def.generics.first() {
            let (IdlTypeDefGeneric::Type { name } | IdlTypeDefGeneric::Const { name, .. }) =
                generic;
            return Err(format!(
                "type `{}` is generic (`{name}`); make idl does not instantiate generics",
                def.name
            ));
        }
        match &def.ty {
            IdlTypeDefTy::Struct { .. } => self.struct_def(def, depth).map(Ty::Struct),
            IdlTypeDefTy::Enum { variants } if variants.is_empty() => Err(format!(
                "enum `{}` has no variants: no value of it exists",
                def.name
            )),
            IdlTypeDefTy::Enum { variants } => Ok(Ty::Enum(Enum {
                name: def.name.clone(),
                ident: String::new(),
                tag: 1,
                variants: variants
                    .iter()
                    .map(|v| {
                        Ok(Variant {
                            name: v.name.clone(),
                            fields: self.fields(
                                &format!("{}::{}", def.name, v.name),
                                v.fields.as_ref(),
                                depth,
                            )?,
                        })
                    })
                    .collect::<Result<_, String>>()?,
            })),
            IdlTypeDefTy::Type { alias } => self
                .ty(alias, depth + 1)
                .map_err(|e| format!("type `{}`: {e}", def.name)),
        }
    }

    /// A struct's definition (an account's record, an instruction's
    /// arguments), or why it is not one.
    fn struct_def(&self, def: &IdlTypeDef, depth: usize) -> Result<Struct, String> {
        let IdlTypeDefTy::Struct { fields } = &def.ty else {
            return Err(format!("type `{}` is not a struct", def.name));
        };
        Ok(Struct {
            name: def.name.clone(),
            ident: String::new(),
            fields: self.fields(&def.name, fields.as_ref(), depth)?,
            packed: matches!(
                &def.repr,
                Some(IdlRepr::C(m)) | Some(IdlRepr::Rust(m)) if m.packed
            ),
        })
    }

    fn fields(
        &self,
        owner: &str,
        fields: Option<&IdlDefinedFields>,
        depth: usize,
    ) -> Result<Vec<Field>, String> {
        let named: Vec<(String, &IdlType)> = match fields {
            None => Vec::new(),
            Some(IdlDefinedFields::Named(fields)) => {
                fields.iter().map(|f| (f.name.clone(), &f.ty)).collect()
            }
            Some(IdlDefinedFields::Tuple(types)) => types
                .iter()
                .enumerate()
                .map(|(i, ty)| (i.to_string(), ty))
                .collect(),
        };
        named
            .into_iter()
            .map(|(name, ty)| {
                let ty = self
                    .ty(ty, depth + 1)
                    .map_err(|e| format!("type `{owner}`, field `{name}`: {e}"))?;
                Ok(Field { name, ty })
            })
            .collect()
    }

    fn ty(&self, ty: &IdlType, depth: usize) -> Result<Ty, String> {
        if depth > MAX_DEPTH {
            return Err(format!(
                "nested more than {MAX_DEPTH} deep (a type that contains itself?)"
            ));
        }
        let int = |bytes, signed| Ok(Ty::Int { bytes, signed });
        match ty {
            IdlType::Bool => Ok(Ty::Bool),
            IdlType::U8 => int(1, false),
            IdlType::I8 => int(1, true),
            IdlType::U16 => int(2, false),
            IdlType::I16 => int(2, true),
            IdlType::U32 => int(4, false),
            IdlType::I32 => int(4, true),
            IdlType::U64 => int(8, false),
            IdlType::I64 => int(8, true),
            IdlType::U128 => int(16, false),
            IdlType::I128 => int(16, true),
            IdlType::F32 => Ok(Ty::Float { bytes: 4 }),
            IdlType::F64 => Ok(Ty::Float { bytes: 8 }),
            IdlType::Pubkey => Ok(Ty::Pubkey),
            IdlType::String => Ok(Ty::String),
            IdlType::Bytes => Ok(Ty::Bytes),
            IdlType::Option(inner) => Ok(Ty::Option(Box::new(self.ty(inner, depth + 1)?))),
            IdlType::Vec(inner) => Ok(Ty::Vec(Box::new(self.ty(inner, depth + 1)?))),
            IdlType::Array(inner, IdlArrayLen::Value(len)) => {
                Ok(Ty::Array(Box::new(self.ty(inner, depth + 1)?), *len))
            }
            IdlType::Array(_, IdlArrayLen::Generic(name)) => Err(format!(
                "an array of generic length `{name}`; make idl does not instantiate generics"
            )),
            IdlType::Defined { name, generics } if name.starts_with('$') => {
                let mut parts = generics.iter().map(|g| match g {
                    IdlGenericArg::Type { ty } => self.ty(ty, depth + 1),
                    IdlGenericArg::Const { value } => Err(format!(
                        "a map or set with a constant `{value}` where a type belongs"
                    )),
                });
                let key = parts.next().ok_or("a map or set with no key type")??;
                let value = parts.next().transpose()?;
                let expected = if name.ends_with("Map") { 2 } else { 1 };
                if generics.len() != expected {
                    return Err(format!(
                        "a `{}` with {} types, not {expected}",
                        &name[1..],
                        generics.len()
                    ));
                }
                map(key, value, name.starts_with("$bTree"))
            }
            IdlType::Defined { name, generics } => {
                if !generics.is_empty() {
                    return Err(format!(
                        "`{name}` with generic arguments; make idl does not instantiate generics"
                    ));
                }
                match self.parsed.types.get(name) {
                    Some(Ok(def)) => self.def(def, depth + 1),
                    Some(Err(e)) => Err(format!("type `{name}` does not parse: {e}")),
                    None => Err(format!("unknown type `{name}` (not in the IDL's `types`)")),
                }
            }
            IdlType::Generic(name) => Err(format!(
                "generic parameter `{name}`; make idl does not instantiate generics"
            )),
            other => Err(format!(
                "`{other:?}` is not a type make idl can lay out yet (u256/i256)"
            )),
        }
    }
}
