//! Reads an IDL file into the Anchor spec's types (`anchor-lang-idl-spec`):
//! a spec 0.1.0 file as it is, a legacy Anchor or Shank file converted into
//! the spec's shape first. Only what accounts need is read (their names,
//! discriminators and the type definitions): instructions, events and the
//! program address are left out, and a type that does not parse is an error
//! only where an account reaches it.

use std::{collections::BTreeMap, fs, path::Path};

use anchor_lang_idl_spec::{IdlAccount, IdlTypeDef};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// Which kind of IDL a file was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Anchor 0.30 and later: `metadata.spec` 0.1.0, discriminators given.
    Anchor,
    /// Anchor before 0.30: `version` and `name` at the top, no
    /// discriminators (sha256 of `account:<Name>`), no `serialization`.
    LegacyAnchor,
    /// Shank (legacy shape, `metadata.origin: "shank"`): no discriminator.
    Shank,
}

impl Format {
    pub fn name(self) -> &'static str {
        match self {
            Self::Anchor => "Anchor (spec 0.1.0)",
            Self::LegacyAnchor => "legacy Anchor",
            Self::Shank => "Shank",
        }
    }
}

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
    /// Empty where the format has none (Shank).
    pub discriminator: Vec<u8>,
}

/// An IDL's accounts and type definitions.
#[derive(Clone, Debug)]
pub struct Parsed {
    /// The file, as the user named it (messages name it).
    pub path: String,
    /// The program's name (the file's, or the file stem).
    pub program: String,
    pub format: Format,
    pub accounts: Vec<DeclaredAccount>,
    /// Every type by name: its definition, or why it does not parse.
    pub types: BTreeMap<String, Result<IdlTypeDef, String>>,
}

/// Why a file cannot be read as an IDL; each names the file and says what
/// to do.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum InputError {
    #[error("{path}: cannot read it ({reason}); give IDL=<path to the program's IDL JSON>")]
    Read { path: String, reason: String },
    #[error(
        "{path}: not JSON ({reason}); make idl reads an Anchor IDL (target/idl/<program>.json) or a Shank IDL"
    )]
    NotJson { path: String, reason: String },
    #[error(
        "{path}: a Codama IDL, which make idl does not read yet; it reads Anchor IDLs (spec 0.1.0 or legacy) and Shank IDLs"
    )]
    Codama { path: String },
    #[error(
        "{path}: not an IDL make idl knows (neither `metadata.spec` nor a legacy `version` and `name`); it reads Anchor IDLs (spec 0.1.0 or legacy) and Shank IDLs"
    )]
    Unknown { path: String },
    #[error("{path}: declares no accounts, so there is nothing to measure")]
    NoAccounts { path: String },
    #[error("{path}: account {index}: {reason}")]
    Account {
        path: String,
        index: usize,
        reason: String,
    },
}

/// Reads and parses the IDL at `path`.
pub fn read(path: &Path) -> Result<Parsed, InputError> {
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
pub fn parse(path: &str, stem: &str, text: &str) -> Result<Parsed, InputError> {
    let idl: Value = serde_json::from_str(text).map_err(|e| InputError::NotJson {
        path: path.into(),
        reason: e.to_string(),
    })?;
    let Some(top) = idl.as_object() else {
        return Err(InputError::Unknown { path: path.into() });
    };
    let text_of = |v: Option<&Value>| v.and_then(Value::as_str).map(String::from);
    let metadata = top.get("metadata").and_then(Value::as_object);
    let format = if metadata.and_then(|m| m.get("spec")).is_some() {
        Format::Anchor
    } else if top.get("kind").and_then(Value::as_str) == Some("rootNode")
        || top.get("standard").and_then(Value::as_str) == Some("codama")
    {
        return Err(InputError::Codama { path: path.into() });
    } else if top.contains_key("version") && top.contains_key("name") {
        match metadata
            .and_then(|m| m.get("origin"))
            .and_then(Value::as_str)
        {
            Some("shank") => Format::Shank,
            _ => Format::LegacyAnchor,
        }
    } else {
        return Err(InputError::Unknown { path: path.into() });
    };
    let program = match format {
        Format::Anchor => text_of(metadata.and_then(|m| m.get("name"))),
        _ => text_of(top.get("name")),
    }
    .unwrap_or_else(|| stem.into());
    let empty = Vec::new();
    let listed = |key: &str| top.get(key).and_then(Value::as_array).unwrap_or(&empty);

    let mut types: BTreeMap<String, Result<IdlTypeDef, String>> = BTreeMap::new();
    let mut accounts = Vec::new();
    let mut add_type = |def: Value| {
        let name = text_of(def.get("name")).unwrap_or_default();
        let parsed = serde_json::from_value::<IdlTypeDef>(def).map_err(|e| e.to_string());
        types.insert(name, parsed);
    };
    match format {
        Format::Anchor => {
            for def in listed("types") {
                add_type(def.clone());
            }
            for (index, account) in listed("accounts").iter().enumerate() {
                let account: IdlAccount =
                    serde_json::from_value(account.clone()).map_err(|e| InputError::Account {
                        path: path.into(),
                        index,
                        reason: e.to_string(),
                    })?;
                accounts.push(DeclaredAccount {
                    name: account.name,
                    discriminator: account.discriminator,
                });
            }
        }
        Format::LegacyAnchor | Format::Shank => {
            for def in listed("types") {
                add_type(legacy_type_def(def));
            }
            // Legacy accounts carry their type inline: it becomes a type of
            // the same name, as in the spec.
            for (index, account) in listed("accounts").iter().enumerate() {
                let name = text_of(account.get("name")).ok_or_else(|| InputError::Account {
                    path: path.into(),
                    index,
                    reason: "no `name`".into(),
                })?;
                add_type(legacy_type_def(account));
                let discriminator = match format {
                    Format::Shank => Vec::new(),
                    _ => legacy_discriminator(&name).to_vec(),
                };
                accounts.push(DeclaredAccount {
                    name,
                    discriminator,
                });
            }
        }
    }
    if accounts.is_empty() {
        return Err(InputError::NoAccounts { path: path.into() });
    }
    Ok(Parsed {
        path: path.into(),
        program,
        format,
        accounts,
        types,
    })
}

/// A legacy Anchor account's discriminator: the first 8 bytes of
/// sha256("account:" + its name, as written).
pub fn legacy_discriminator(name: &str) -> [u8; 8] {
    let hash = Sha256::digest(format!("account:{name}").as_bytes());
    hash[..8].try_into().expect("a sha256 is 32 bytes")
}

/// A legacy type definition (`{name, type: {kind, fields | variants}}`)
/// with its field types in the spec's shape.
fn legacy_type_def(def: &Value) -> Value {
    let mut def = def.clone();
    if let Some(ty) = def.get_mut("type").and_then(Value::as_object_mut) {
        if let Some(Value::Array(fields)) = ty.get_mut("fields") {
            for field in fields {
                legacy_field(field);
            }
        }
        if let Some(Value::Array(variants)) = ty.get_mut("variants") {
            for variant in variants {
                if let Some(Value::Array(fields)) = variant.get_mut("fields") {
                    for field in fields {
                        legacy_field(field);
                    }
                }
            }
        }
        if let Some(alias) = ty.get_mut("alias") {
            *alias = legacy_type(alias);
        }
    }
    def
}

/// A named field (`{name, type}`) or a tuple field (a type).
fn legacy_field(field: &mut Value) {
    match field.as_object_mut() {
        Some(named) if named.contains_key("name") && named.contains_key("type") => {
            let ty = legacy_type(&named["type"]);
            named.insert("type".into(), ty);
        }
        _ => *field = legacy_type(field),
    }
}

/// A legacy type in the spec's shape: `publicKey` is `pubkey`, and
/// `{"defined": "Name"}` is `{"defined": {"name": "Name"}}`.
fn legacy_type(ty: &Value) -> Value {
    match ty {
        Value::String(name) if name == "publicKey" => json!("pubkey"),
        Value::Object(object) => {
            let mut out = Map::new();
            for (key, inner) in object {
                let converted = match (key.as_str(), inner) {
                    ("defined", Value::String(name)) => json!({ "name": name }),
                    ("array", Value::Array(parts)) if parts.len() == 2 => {
                        json!([legacy_type(&parts[0]), parts[1]])
                    }
                    _ => legacy_type(inner),
                };
                out.insert(key.clone(), converted);
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

/// An account's own bytes from `DATA=<dir>`: `<Account>.json` as
/// `solana account <address> --output json` writes it (base64 data), or
/// `<Account>.bin`; `None` where the folder has neither.
pub fn account_data(dir: &Path, account: &str) -> Result<Option<(String, Vec<u8>)>, String> {
    let json = dir.join(format!("{account}.json"));
    let bin = dir.join(format!("{account}.bin"));
    if let Ok(bytes) = fs::read(&bin) {
        return Ok(Some((bin.display().to_string(), bytes)));
    }
    let Ok(text) = fs::read_to_string(&json) else {
        return Ok(None);
    };
    let shown = json.display().to_string();
    let what_to_do =
        "write it with `solana account <address> --output json`, or give the raw bytes as";
    let value: Value = serde_json::from_str(&text)
        .map_err(|e| format!("{shown}: not JSON ({e}); {what_to_do} {account}.bin"))?;
    let data = value
        .get("account")
        .and_then(|a| a.get("data"))
        .or_else(|| value.get("data"))
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{shown}: no `account.data` array; {what_to_do} {account}.bin"))?;
    match (
        data.first().and_then(Value::as_str),
        data.get(1).and_then(Value::as_str),
    ) {
        (Some(encoded), Some("base64")) => {
            use base64::Engine as _;
            base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .map(|bytes| Some((shown.clone(), bytes)))
                .map_err(|e| format!("{shown}: `account.data` is not base64 ({e})"))
        }
        _ => Err(format!(
            "{shown}: `account.data` is not [\"<data>\", \"base64\"]; {what_to_do} {account}.bin"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
            (parsed.format, parsed.program.as_str()),
            (Format::Anchor, "p")
        );
        assert_eq!(parsed.accounts[0].discriminator, [1, 2, 3, 4, 5, 6, 7, 8]);

        let shank = r#"{"version": "1.0.0", "name": "s", "metadata": {"origin": "shank"},
            "accounts": [{"name": "B", "type": {"kind": "struct", "fields": [{"name": "k", "type": "publicKey"}]}}]}"#;
        let parsed = parse("s.json", "s", shank).unwrap();
        assert_eq!(parsed.format, Format::Shank);
        assert!(parsed.accounts[0].discriminator.is_empty());
        assert!(parsed.types["B"].is_ok());

        let codama = r#"{"kind": "rootNode", "standard": "codama", "version": "1.0.0"}"#;
        assert_eq!(
            parse("c.json", "c", codama).unwrap_err().to_string(),
            "c.json: a Codama IDL, which make idl does not read yet; it reads Anchor IDLs (spec 0.1.0 or legacy) and Shank IDLs"
        );
        let err = parse("n.json", "n", "not json").unwrap_err().to_string();
        assert!(err.starts_with("n.json: not JSON ("), "{err}");
        let none = r#"{"version": "1", "name": "e", "accounts": []}"#;
        assert_eq!(
            parse("e.json", "e", none).unwrap_err().to_string(),
            "e.json: declares no accounts, so there is nothing to measure"
        );
    }
}
