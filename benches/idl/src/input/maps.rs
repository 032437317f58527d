//! Maps and sets, which the spec's types do not have, read as generic
//! `defined` types the model turns back into maps.

use serde_json::{Value, json};

/// The map and set types a file may write (`{"hashMap": [K, V]}`,
/// `{"bTreeSet": T}`), which the spec's types do not have, as a `defined`
/// type of a name no IDL type can have (`$hashMap`) with the key and value
/// as its generic arguments: the model reads them back as maps.
pub const MAP_TYPES: [&str; 4] = ["hashMap", "bTreeMap", "hashSet", "bTreeSet"];

pub(super) fn maps_as_generics(value: &mut Value) {
    match value {
        Value::Object(o) => {
            for inner in o.values_mut() {
                maps_as_generics(inner);
            }
            let Some((kind, parts)) = o
                .iter()
                .next()
                .filter(|(k, _)| o.len() == 1 && MAP_TYPES.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
            else {
                return;
            };
            let parts = match parts {
                Value::Array(parts) => parts,
                one => vec![one],
            };
            let generics: Vec<Value> = parts
                .into_iter()
                .map(|ty| json!({"kind": "type", "type": ty}))
                .collect();
            *value = json!({"defined": {"name": format!("${kind}"), "generics": generics}});
        }
        Value::Array(items) => items.iter_mut().for_each(maps_as_generics),
        _ => {}
    }
}
