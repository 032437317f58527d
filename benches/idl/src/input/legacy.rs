//! A legacy Anchor or Shank file's parts in the spec's shape: the
//! discriminators a legacy file leaves out (Anchor's hashes of the names)
//! and its types (`publicKey`, `{"defined": "Name"}`) as the spec writes
//! them.

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// A legacy Anchor account's discriminator: the first 8 bytes of
/// sha256("account:" + its name, as written).
pub fn legacy_discriminator(name: &str) -> [u8; 8] {
    let hash = Sha256::digest(format!("account:{name}").as_bytes());
    hash[..8].try_into().expect("a sha256 is 32 bytes")
}

/// A legacy Anchor instruction's discriminator: the first 8 bytes of
/// sha256("global:" + its Rust name). Legacy IDLs print names in
/// camelCase (`placePerpOrder`) while the hash is of the Rust function's
/// snake_case name (`place_perp_order`), converted as Anchor converts it
/// (`heck`).
pub fn legacy_instruction_discriminator(name: &str) -> [u8; 8] {
    use heck::ToSnakeCase as _;
    let hash = Sha256::digest(format!("global:{}", name.to_snake_case()).as_bytes());
    hash[..8].try_into().expect("a sha256 is 32 bytes")
}

/// A legacy Anchor event's discriminator: the first 8 bytes of
/// sha256("event:" + its type name, as written).
pub fn legacy_event_discriminator(name: &str) -> [u8; 8] {
    let hash = Sha256::digest(format!("event:{name}").as_bytes());
    hash[..8].try_into().expect("a sha256 is 32 bytes")
}

/// A legacy type definition (`{name, type: {kind, fields | variants}}`)
/// with its field types in the spec's shape.
pub(super) fn legacy_type_def(def: &Value) -> Value {
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
pub(super) fn legacy_type(ty: &Value) -> Value {
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
        // A map's key and value, in its generic arguments.
        Value::Array(items) => Value::Array(items.iter().map(legacy_type).collect()),
        other => other.clone(),
    }
}
