//! Why a type definition does not parse, said in the file's own words:
//! the first field whose type is not one of the spec's, in place of
//! serde's "did not match any variant".

use serde_json::Value;

/// Where a type definition that does not parse goes wrong: the first
/// field whose type is not one of the spec's, named with the type as the
/// file writes it (`coption`, `hashMap`, ...), in place of serde's "did
/// not match any variant".
pub(super) fn unreadable_field(def: &Value) -> Option<String> {
    let ty = def.get("type")?;
    let mut fields: Vec<(String, &Value)> = Vec::new();
    fn named<'a>(owner: Option<&str>, list: &'a Value) -> Vec<(String, &'a Value)> {
        list.as_array()
            .into_iter()
            .flatten()
            .enumerate()
            .map(|(i, field)| {
                let (name, ty) = match field.get("name").and_then(Value::as_str) {
                    Some(name) => (name.to_string(), field.get("type").unwrap_or(&Value::Null)),
                    None => (i.to_string(), field),
                };
                (owner.map_or(name.clone(), |o| format!("{o}::{name}")), ty)
            })
            .collect()
    }
    if let Some(list) = ty.get("fields") {
        fields.extend(named(None, list));
    }
    for variant in ty
        .get("variants")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        if let (Some(name), Some(list)) = (
            variant.get("name").and_then(Value::as_str),
            variant.get("fields"),
        ) {
            fields.extend(named(Some(name), list));
        }
    }
    if let Some(alias) = ty.get("alias") {
        fields.push(("(alias)".into(), alias));
    }
    fields
        .into_iter()
        .find_map(|(name, ty)| unreadable_type(ty).map(|what| format!("field `{name}`: {what}")))
}

/// Why `ty` is not a type of the spec, naming the innermost part that is
/// not; `None` where it is one.
fn unreadable_type(ty: &Value) -> Option<String> {
    if serde_json::from_value::<anchor_lang_idl_spec::IdlType>(ty.clone()).is_ok() {
        return None;
    }
    let object = ty.as_object();
    let inner = object.and_then(|o| {
        ["option", "vec", "array"]
            .iter()
            .find_map(|key| o.get(*key))
            .map(|inner| match inner {
                Value::Array(parts) => parts.first().unwrap_or(&Value::Null),
                other => other,
            })
    });
    if let Some(found) = inner.and_then(unreadable_type) {
        return Some(found);
    }
    let written = match ty {
        Value::String(name) => name.clone(),
        Value::Object(o) => o.keys().next().cloned().unwrap_or_default(),
        other => other.to_string(),
    };
    let known =
        "bool, u8-u128, i8-i128, f32, f64, pubkey, string, bytes, option, vec, array, defined";
    Some(format!(
        "`{written}` is not a type of the Anchor IDL spec that make idl reads ({known}){}",
        match written.as_str() {
            "coption" =>
                "; a legacy `coption` (a 4-byte tag then the value, as SPL's `COption`) has no borsh layout in the spec",
            _ => "",
        }
    ))
}
