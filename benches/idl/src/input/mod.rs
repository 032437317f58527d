//! Reads an IDL file: a Codama file (`rootNode`) into `codama-nodes`'s
//! tree as it is; any other into the Anchor spec's types
//! (`anchor-lang-idl-spec`), a spec 0.1.0 file as it is, a legacy Anchor or
//! Shank file converted into the spec's shape first. What is read: accounts (names and
//! discriminators), instructions (names, discriminators, arguments), events
//! (names, discriminators, fields) and the type definitions; the program
//! address is left out, and a type that does not parse is an error only
//! where an account, instruction or event reaches it.

use std::{collections::BTreeMap, fs, path::Path};

use anchor_lang_idl_spec::{IdlAccount, IdlTypeDef};
use codama_nodes::{NodeTrait as _, RootNode};
use serde_json::{Value, json};

use crate::model::types::AnchorDialect;

mod account_data;
pub mod accounts;
mod legacy;
mod maps;
mod unreadable;

pub use account_data::account_data;
use legacy::legacy_type_def;
pub use legacy::{
    legacy_discriminator, legacy_event_discriminator, legacy_instruction_discriminator,
};
pub use maps::MAP_TYPES;
use maps::maps_as_generics;
use unreadable::unreadable_field;

/// What a legacy IDL does not say and the user does: which accounts are
/// zero-copy (`ZERO_COPY=`), and which of those are `repr(packed)`
/// (`PACKED=`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assumptions {
    pub zero_copy: Vec<String>,
    pub packed: Vec<String>,
}

impl Assumptions {
    /// From the comma-separated lists the Makefile passes on.
    pub fn from_lists(zero_copy: &str, packed: &str) -> Self {
        let list = |s: &str| {
            s.split(',')
                .map(str::trim)
                .filter(|n| !n.is_empty())
                .map(String::from)
                .collect()
        };
        Self {
            zero_copy: list(zero_copy),
            packed: list(packed),
        }
    }
}

/// One account type as the file declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeclaredAccount {
    pub name: String,
    /// Empty where the dialect has none (Shank).
    pub discriminator: Vec<u8>,
}

/// One instruction as the file declares it.
#[derive(Clone, Debug)]
pub struct DeclaredInstruction {
    pub name: String,
    /// The bytes its data starts with: the IDL's (Anchor spec), the first
    /// 8 bytes of sha256(`global:<snake_case name>`) (legacy Anchor), or
    /// the one-byte `discriminant` (Shank).
    pub discriminator: Result<Vec<u8>, String>,
    /// Its arguments as one struct (named `<Name>Args`, or
    /// `<Name>InstructionArgs` where a type already has that name), or why
    /// they do not parse.
    pub args: Result<IdlTypeDef, String>,
}

/// One event as the file declares it.
#[derive(Clone, Debug)]
pub struct DeclaredEvent {
    pub name: String,
    /// The IDL's (Anchor spec), or the first 8 bytes of
    /// sha256(`event:<Name>`) (legacy Anchor).
    pub discriminator: Vec<u8>,
    /// Its fields: inline in a legacy file; `None` where they are the type
    /// of the same name (Anchor spec).
    pub fields: Option<Result<IdlTypeDef, String>>,
}

/// An IDL's accounts, instructions, events and type definitions.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The file, as the user named it (messages name it).
    pub path: String,
    /// The program's name (the file's, or the file stem).
    pub program: String,
    /// Its address, where the file gives it (`address`, or a legacy
    /// file's `metadata.address`).
    pub address: Option<String>,
    pub dialect: AnchorDialect,
    pub accounts: Vec<DeclaredAccount>,
    pub instructions: Vec<DeclaredInstruction>,
    pub events: Vec<DeclaredEvent>,
    /// Every type by name: its definition, or why it does not parse.
    pub types: BTreeMap<String, Result<IdlTypeDef, String>>,
}

/// A file as read: the Anchor spec's types, or a Codama tree.
#[derive(Clone, Debug)]
pub enum Idl {
    Anchor(Parsed),
    Codama(Box<Codama>),
}

/// A Codama file, parsed by `codama-nodes`.
#[derive(Clone, Debug)]
pub struct Codama {
    /// The file, as the user named it.
    pub path: String,
    pub root: RootNode,
}

/// Why a file cannot be read as an IDL; each names the file and says what
/// to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InputError {
    #[error("{path}: cannot read it ({reason}); give IDL=<path to the program's IDL JSON>")]
    Read { path: String, reason: String },
    #[error(
        "{path}: not JSON ({reason}); make idl reads an Anchor IDL (target/idl/<program>.json), a Shank IDL or a Codama IDL"
    )]
    NotJson { path: String, reason: String },
    #[error(
        "{path}: a Codama IDL that codama-nodes 0.13 does not parse ({reason}); make idl reads Codama files as the Codama CLI or codama-rs writes them"
    )]
    Codama { path: String, reason: String },
    #[error(
        "{path}: not an IDL make idl knows (neither `metadata.spec`, a legacy `version` and `name`, nor a Codama `rootNode`); it reads Anchor IDLs (spec 0.1.0 or legacy), Shank IDLs and Codama IDLs"
    )]
    Unknown { path: String },
    #[error("{path}: declares no accounts, instructions or events, so there is nothing to measure")]
    Empty { path: String },
    #[error("{path}: account {index}: {reason}")]
    Account {
        path: String,
        index: usize,
        reason: String,
    },
}

/// Reads and parses the IDL at `path`.
pub fn read(path: &Path) -> Result<Idl, InputError> {
    let shown = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|e| InputError::Read {
        path: shown.clone(),
        reason: e.to_string(),
    })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".into());
    parse(&shown, &stem, &text)
}

/// Parses an IDL's text; `path` and `stem` name it in messages and reports.
pub fn parse(path: &str, stem: &str, text: &str) -> Result<Idl, InputError> {
    let mut idl: Value = serde_json::from_str(text).map_err(|e| InputError::NotJson {
        path: path.into(),
        reason: e.to_string(),
    })?;
    maps_as_generics(&mut idl);
    let Some(top) = idl.as_object() else {
        return Err(InputError::Unknown { path: path.into() });
    };
    let text_of = |v: Option<&Value>| v.and_then(Value::as_str).map(String::from);
    let metadata = top.get("metadata").and_then(Value::as_object);
    let dialect = if metadata.and_then(|m| m.get("spec")).is_some() {
        AnchorDialect::Anchor
    } else if top.get("kind").and_then(Value::as_str) == Some("rootNode")
        || top.get("standard").and_then(Value::as_str) == Some("codama")
    {
        return codama(path, text);
    } else if top.contains_key("version") && top.contains_key("name") {
        match metadata
            .and_then(|m| m.get("origin"))
            .and_then(Value::as_str)
        {
            Some("shank") => AnchorDialect::Shank,
            _ => AnchorDialect::LegacyAnchor,
        }
    } else {
        return Err(InputError::Unknown { path: path.into() });
    };
    let program = match dialect {
        AnchorDialect::Anchor => text_of(metadata.and_then(|m| m.get("name"))),
        _ => text_of(top.get("name")),
    }
    .unwrap_or_else(|| stem.into());
    let empty = Vec::new();
    let listed = |key: &str| top.get(key).and_then(Value::as_array).unwrap_or(&empty);

    let mut types: BTreeMap<String, Result<IdlTypeDef, String>> = BTreeMap::new();
    let mut accounts = Vec::new();
    let add_type = |types: &mut BTreeMap<_, _>, def: Value| {
        let name = text_of(def.get("name")).unwrap_or_default();
        let parsed = serde_json::from_value::<IdlTypeDef>(def.clone())
            .map_err(|e| unreadable_field(&def).unwrap_or_else(|| e.to_string()));
        types.insert(name, parsed);
    };
    match dialect {
        AnchorDialect::Anchor => {
            for def in listed("types") {
                add_type(&mut types, def.clone());
            }
            for (index, written) in listed("accounts").iter().enumerate() {
                let account: IdlAccount =
                    serde_json::from_value(written.clone()).map_err(|e| InputError::Account {
                        path: path.into(),
                        index,
                        reason: e.to_string(),
                    })?;
                // Some spec files carry an account's type inline, as legacy
                // files do, and not in `types`: it becomes the type of the
                // account's name, its discriminator still the file's.
                if written.get("type").is_some() && !types.contains_key(&account.name) {
                    add_type(&mut types, legacy_type_def(written));
                }
                accounts.push(DeclaredAccount {
                    name: account.name,
                    discriminator: account.discriminator,
                });
            }
        }
        AnchorDialect::LegacyAnchor | AnchorDialect::Shank => {
            for def in listed("types") {
                add_type(&mut types, legacy_type_def(def));
            }
            // Legacy accounts carry their type inline: it becomes a type of
            // the same name, as in the spec.
            for (index, account) in listed("accounts").iter().enumerate() {
                let name = text_of(account.get("name")).ok_or_else(|| InputError::Account {
                    path: path.into(),
                    index,
                    reason: "no `name`".into(),
                })?;
                add_type(&mut types, legacy_type_def(account));
                let discriminator = match dialect {
                    AnchorDialect::Shank => Vec::new(),
                    _ => legacy_discriminator(&name).to_vec(),
                };
                accounts.push(DeclaredAccount {
                    name,
                    discriminator,
                });
            }
        }
    }
    let instructions: Vec<DeclaredInstruction> = listed("instructions")
        .iter()
        .map(|ix| instruction(dialect, ix, &types))
        .collect();
    let events: Vec<DeclaredEvent> = listed("events")
        .iter()
        .map(|event| {
            let name = text_of(event.get("name")).unwrap_or_default();
            let discriminator = match dialect {
                AnchorDialect::Anchor => bytes_of(event.get("discriminator")).unwrap_or_default(),
                _ => legacy_event_discriminator(&name).to_vec(),
            };
            let fields = event.get("fields").map(|_| {
                serde_json::from_value::<IdlTypeDef>(legacy_type_def(&json!({
                    "name": name,
                    "type": {"kind": "struct", "fields": event["fields"]},
                })))
                .map_err(|e| e.to_string())
            });
            DeclaredEvent {
                name,
                discriminator,
                fields,
            }
        })
        .collect();
    if accounts.is_empty() && instructions.is_empty() && events.is_empty() {
        return Err(InputError::Empty { path: path.into() });
    }
    Ok(Idl::Anchor(Parsed {
        path: path.into(),
        program,
        address: text_of(top.get("address"))
            .or_else(|| text_of(metadata.and_then(|m| m.get("address"))))
            .filter(|a| !a.is_empty()),
        dialect,
        accounts,
        instructions,
        events,
        types,
    }))
}

/// A Codama file, as `codama-nodes` reads it.
fn codama(path: &str, text: &str) -> Result<Idl, InputError> {
    let root = RootNode::from_json(text).map_err(|e| InputError::Codama {
        path: path.into(),
        reason: e.to_string(),
    })?;
    let program = &root.program;
    if program.accounts.is_empty() && program.instructions.is_empty() && program.events.is_empty() {
        return Err(InputError::Empty { path: path.into() });
    }
    Ok(Idl::Codama(Box::new(Codama {
        path: path.into(),
        root,
    })))
}

/// A JSON array of bytes.
fn bytes_of(value: Option<&Value>) -> Option<Vec<u8>> {
    value?
        .as_array()?
        .iter()
        .map(|b| b.as_u64().and_then(|b| u8::try_from(b).ok()))
        .collect()
}

/// One instruction: its discriminator and its arguments as a struct type.
fn instruction(
    dialect: AnchorDialect,
    ix: &Value,
    types: &BTreeMap<String, Result<IdlTypeDef, String>>,
) -> DeclaredInstruction {
    use heck::ToUpperCamelCase as _;
    let name = ix
        .get("name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let discriminator = match dialect {
        AnchorDialect::Anchor => bytes_of(ix.get("discriminator"))
            .ok_or_else(|| "no `discriminator` array of bytes".to_string()),
        AnchorDialect::LegacyAnchor => Ok(legacy_instruction_discriminator(&name).to_vec()),
        AnchorDialect::Shank => match ix.get("discriminant") {
            Some(d) if d.get("type").and_then(Value::as_str) == Some("u8") => d
                .get("value")
                .and_then(Value::as_u64)
                .and_then(|v| u8::try_from(v).ok())
                .map(|v| vec![v])
                .ok_or_else(|| format!("its `discriminant` is not a u8 value: {d}")),
            Some(d) => Err(format!(
                "its `discriminant` is not one u8 ({d}); make idl reads one-byte discriminants"
            )),
            None => Err("no `discriminant` (Shank's one-byte instruction tag)".into()),
        },
    };
    let camel = name.to_upper_camel_case();
    let struct_name = if types.contains_key(&format!("{camel}Args")) {
        format!("{camel}InstructionArgs")
    } else {
        format!("{camel}Args")
    };
    let fields = ix.get("args").cloned().unwrap_or_else(|| json!([]));
    let def = json!({"name": struct_name, "type": {"kind": "struct", "fields": fields}});
    let def = match dialect {
        AnchorDialect::Anchor => def,
        _ => legacy_type_def(&def),
    };
    DeclaredInstruction {
        name,
        discriminator,
        args: serde_json::from_value(def).map_err(|e| e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::{legacy::legacy_type, *};

    /// `text` parsed as an Anchor-shaped IDL.
    fn parse(path: &str, stem: &str, text: &str) -> Result<Parsed, InputError> {
        super::parse(path, stem, text).map(|idl| match idl {
            Idl::Anchor(parsed) => parsed,
            Idl::Codama(_) => panic!("{path} read as Codama"),
        })
    }

    #[test]
    fn legacy_discriminator_is_sha256_of_account_and_name() {
        // sha256("account:Multisig")[..8], computed independently with
        // `printf 'account:Multisig' | sha256sum`.
        assert_eq!(
            legacy_discriminator("Multisig"),
            [0xe0, 0x74, 0x79, 0xba, 0x44, 0xa1, 0x4f, 0xec]
        );
    }

    #[test]
    fn legacy_instruction_discriminators_hash_the_snake_case_name() {
        // Known answer: sha256("global:initialize")[..8] is afaf6d1f0d989bed.
        assert_eq!(
            legacy_instruction_discriminator("initialize"),
            [0xaf, 0xaf, 0x6d, 0x1f, 0x0d, 0x98, 0x9b, 0xed]
        );
        // A legacy IDL prints `placePerpOrder`; the hash is of
        // `global:place_perp_order` (`printf 'global:place_perp_order' | sha256sum`).
        assert_eq!(
            legacy_instruction_discriminator("placePerpOrder"),
            legacy_instruction_discriminator("place_perp_order")
        );
        assert_eq!(
            legacy_instruction_discriminator("placePerpOrder"),
            [0x45, 0xa1, 0x5d, 0xca, 0x78, 0x7e, 0x4c, 0xb9]
        );
    }

    #[test]
    fn maps_and_sets_are_read_as_generic_defined_types() {
        let legacy = r#"{"version": "1", "name": "l", "accounts": [{"name": "A", "type": {"kind": "struct",
            "fields": [{"name": "rules", "type": {"hashMap": ["publicKey", {"defined": "Rule"}]}},
                       {"name": "seen", "type": {"option": {"bTreeSet": "u64"}}}]}}],
            "types": [{"name": "Rule", "type": {"kind": "struct", "fields": [{"name": "x", "type": "u8"}]}}]}"#;
        let parsed = parse("l.json", "l", legacy).unwrap();
        let program = crate::model::resolve(&Idl::Anchor(parsed), &Assumptions::default());
        let account = program.accounts[0].as_ref().unwrap();
        let crate::model::Ty::Map {
            key,
            value: Some(value),
            sorted: false,
        } = &account.record.fields[0].ty
        else {
            panic!("{:?}", account.record.fields[0].ty)
        };
        assert_eq!(**key, crate::model::Ty::Pubkey);
        assert!(matches!(**value, crate::model::Ty::Struct(ref s) if s.name == "Rule"));
        assert!(matches!(
            &account.record.fields[1].ty,
            crate::model::Ty::Option(set) if matches!(**set, crate::model::Ty::Map { value: None, sorted: true, .. })
        ));
    }

    #[test]
    fn a_type_the_spec_does_not_have_is_named_with_its_field() {
        let legacy = r#"{"version": "1", "name": "l", "accounts": [{"name": "A", "type": {"kind": "struct",
            "fields": [{"name": "n", "type": "u8"}, {"name": "close_authority", "type": {"coption": "publicKey"}}]}}]}"#;
        let parsed = parse("l.json", "l", legacy).unwrap();
        let error = parsed.types["A"].as_ref().unwrap_err();
        assert!(
            error.starts_with(
                "field `close_authority`: `coption` is not a type of the Anchor IDL spec that make idl reads"
            ),
            "{error}"
        );
        assert!(error.contains("a legacy `coption`"), "{error}");
        let nested = json!({"name": "P", "type": {"kind": "enum", "variants": [
            {"name": "V1", "fields": [{"name": "pair", "type": {"vec": {"tuple": ["string", "u8"]}}}]}]}});
        assert!(
            unreadable_field(&nested)
                .unwrap()
                .starts_with("field `V1::pair`: `tuple` is not a type"),
        );
    }

    #[test]
    fn legacy_types_become_the_specs() {
        let legacy = json!({"vec": {"option": {"array": [{"defined": "Member"}, 3]}}});
        assert_eq!(
            legacy_type(&legacy),
            json!({"vec": {"option": {"array": [{"defined": {"name": "Member"}}, 3]}}})
        );
        assert_eq!(legacy_type(&json!("publicKey")), json!("pubkey"));
    }

    #[test]
    fn each_kind_of_file_is_told_apart() {
        let anchor = r#"{"address": "x", "metadata": {"name": "p", "version": "1", "spec": "0.1.0"},
            "instructions": [], "accounts": [{"name": "A", "discriminator": [1,2,3,4,5,6,7,8]}],
            "types": [{"name": "A", "type": {"kind": "struct", "fields": [{"name": "x", "type": "u64"}]}}]}"#;
        let parsed = parse("a.json", "a", anchor).unwrap();
        assert_eq!(
            (parsed.dialect, parsed.program.as_str()),
            (AnchorDialect::Anchor, "p")
        );
        assert_eq!(parsed.accounts[0].discriminator, [1, 2, 3, 4, 5, 6, 7, 8]);

        let shank = r#"{"version": "1.0.0", "name": "s", "metadata": {"origin": "shank"},
            "accounts": [{"name": "B", "type": {"kind": "struct", "fields": [{"name": "k", "type": "publicKey"}]}}]}"#;
        let parsed = parse("s.json", "s", shank).unwrap();
        assert_eq!(parsed.dialect, AnchorDialect::Shank);
        assert!(parsed.accounts[0].discriminator.is_empty());
        assert!(parsed.types["B"].is_ok());

        let codama = r#"{"kind": "rootNode", "standard": "codama", "version": "1.0.0"}"#;
        let err = super::parse("c.json", "c", codama).unwrap_err().to_string();
        assert!(
            err.starts_with("c.json: a Codama IDL that codama-nodes 0.13 does not parse (Could not parse JSON files: missing field `program`"),
            "{err}"
        );
        let codama = r#"{"kind": "rootNode", "standard": "codama", "version": "1.0.0",
            "program": {"kind": "programNode", "name": "p", "publicKey": "11111111111111111111111111111111", "version": "1",
                "accounts": [{"kind": "accountNode", "name": "a", "data": {"kind": "structTypeNode", "fields": []}}]}}"#;
        assert!(matches!(
            super::parse("c.json", "c", codama),
            Ok(Idl::Codama(_))
        ));
        let err = parse("n.json", "n", "not json").unwrap_err().to_string();
        assert!(err.starts_with("n.json: not JSON ("), "{err}");
        let none = r#"{"version": "1", "name": "e", "accounts": []}"#;
        assert_eq!(
            parse("e.json", "e", none).unwrap_err().to_string(),
            "e.json: declares no accounts, instructions or events, so there is nothing to measure"
        );
        // Instructions alone are something to measure (a Shank file of a
        // native program often declares no accounts).
        let native = r#"{"version": "1", "name": "n", "metadata": {"origin": "shank"}, "accounts": [],
            "instructions": [{"name": "Transfer", "accounts": [], "args": [{"name": "amount", "type": "u64"}],
                              "discriminant": {"type": "u8", "value": 3}}]}"#;
        let parsed = parse("n.json", "n", native).unwrap();
        assert_eq!(parsed.instructions[0].discriminator, Ok(vec![3]));
        assert!(parsed.instructions[0].args.is_ok());
    }
}
