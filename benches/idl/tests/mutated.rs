//! `make idl` never panics on an IDL: the project's example IDLs
//! (`idls/`), their names, types and counts mutated as hand-edited,
//! foreign or older files have them (Rust paths, keywords, names that are
//! no identifier, names that collide, unknown and deeply nested types,
//! empty and huge structs, duplicates, missing keys), through every stage
//! up to the generated source formatted: read, resolve, generate the
//! instances, plan, render. No stage may panic (the guard is not used
//! here: a panic fails the test); every refusal names its item and says
//! why; every rendered program parses and declares each item once.

use std::{collections::BTreeSet, fs};

use idl::{
    generate,
    input::{self, Assumptions},
    measure,
    model::{self, Ty},
    plan::{self, FieldChoices, Plan},
    render::Target,
    value::{self, Fill, Instances, Lengths},
};
use proptest::{
    prelude::*,
    test_runner::{Config, RngSeed},
};
use serde_json::{Value, json};

/// The example IDLs, parsed as JSON.
fn examples() -> Vec<(String, Value)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/idls");
    let mut all: Vec<(String, Value)> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let text = fs::read_to_string(&p).unwrap();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&text).unwrap(),
            )
        })
        .collect();
    all.sort_by(|a, b| a.0.cmp(&b.0));
    all
}

/// Names a published or hand-edited IDL may hold.
fn a_name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("my_program::state::Pool".to_string()),
        Just("my_program::admin::Pool".to_string()),
        Just("type".to_string()),
        Just("self".to_string()),
        Just("Self".to_string()),
        Just("match".to_string()),
        Just("String".to_string()),
        Just("Vec".to_string()),
        Just("Borsh".to_string()),
        Just("_padding0".to_string()),
        Just("2nd-value".to_string()),
        Just("fee rate".to_string()),
        Just("ünïcödé".to_string()),
        Just("日本".to_string()),
        Just(String::new()),
        Just("_".to_string()),
        Just("TokenAccount".to_string()),
        Just("token_account".to_string()),
        Just("tokenAccount".to_string()),
        Just("run".to_string()),
        Just("entrypoint".to_string()),
        "[a-zA-Z_][a-zA-Z0-9_]{0,12}",
    ]
}

/// A type as an IDL writes one, known to the spec or not.
fn a_type() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(json!("u8")),
        Just(json!("u64")),
        Just(json!("i128")),
        Just(json!("bool")),
        Just(json!("string")),
        Just(json!("pubkey")),
        Just(json!("publicKey")),
        Just(json!("bytes")),
        Just(json!("f32")),
        Just(json!("u256")),
        Just(json!({"defined": {"name": "Nowhere"}})),
        Just(json!({"defined": "TokenAccount"})),
        Just(json!({"hashMap": ["string", "u8"]})),
        Just(json!({"coption": "u64"})),
        Just(json!({"generic": "T"})),
        Just(json!(null)),
        Just(json!(7)),
    ];
    leaf.prop_recursive(48, 64, 1, |inner| {
        prop_oneof![
            inner.clone().prop_map(|t| json!({ "option": t })),
            inner.clone().prop_map(|t| json!({ "vec": t })),
            (
                inner,
                prop_oneof![
                    Just(0u64),
                    Just(1),
                    Just(3),
                    Just(4097),
                    Just(1 << 20),
                    Just(1 << 40),
                    Just(u64::MAX),
                ]
            )
                .prop_map(|(t, n)| json!({ "array": [t, n] })),
        ]
    })
}

/// One change to an IDL.
#[derive(Clone, Debug)]
enum Mutation {
    /// The `name` of the `n`th object that has one, and where `rename_uses`
    /// every `defined` that named it.
    Rename {
        n: usize,
        name: String,
        rename_uses: bool,
    },
    /// The `type` of the `n`th object that has one.
    Retype { n: usize, ty: Value },
    /// The `n`th object without its `k`th key.
    RemoveKey { n: usize, k: usize },
    /// The `n`th array's `k`th item twice.
    Duplicate { n: usize, k: usize },
    /// The `n`th array of fields emptied, or grown to `count` fields.
    Resize { n: usize, count: usize },
}

fn a_mutation() -> impl Strategy<Value = Mutation> {
    let n = 0usize..400;
    prop_oneof![
        3 => (n.clone(), a_name(), any::<bool>()).prop_map(|(n, name, rename_uses)| Mutation::Rename { n, name, rename_uses }),
        3 => (n.clone(), a_type()).prop_map(|(n, ty)| Mutation::Retype { n, ty }),
        1 => (n.clone(), 0usize..8).prop_map(|(n, k)| Mutation::RemoveKey { n, k }),
        1 => (n.clone(), 0usize..8).prop_map(|(n, k)| Mutation::Duplicate { n, k }),
        1 => (n, prop_oneof![Just(0usize), Just(1), Just(300)]).prop_map(|(n, count)| Mutation::Resize { n, count }),
    ]
}

/// Every object of `value` with `key`, in document order, as pointers.
fn objects_with(value: &Value, key: &str, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(o) => {
            if o.contains_key(key) {
                out.push(at.clone());
            }
            for (k, v) in o {
                objects_with(
                    v,
                    key,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                objects_with(v, key, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Every array (`arrays`) or object (`!arrays`) of `value`, as pointers.
fn containers(value: &Value, arrays: bool, at: String, out: &mut Vec<String>) {
    match value {
        Value::Object(o) => {
            if !arrays {
                out.push(at.clone());
            }
            for (k, v) in o {
                containers(
                    v,
                    arrays,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        Value::Array(items) => {
            if arrays {
                out.push(at.clone());
            }
            for (i, v) in items.iter().enumerate() {
                containers(v, arrays, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

/// Renames every `defined` that names `from` to `to`.
fn rename_uses(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::Object(o) => {
            if let Some(defined) = o.get_mut("defined") {
                match defined {
                    Value::String(name) if name == from => *name = to.to_string(),
                    Value::Object(d) if d.get("name").and_then(Value::as_str) == Some(from) => {
                        d.insert("name".into(), json!(to));
                    }
                    _ => {}
                }
            }
            for v in o.values_mut() {
                rename_uses(v, from, to);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| rename_uses(v, from, to)),
        _ => {}
    }
}

fn apply(idl: &mut Value, mutation: &Mutation) {
    let pick =
        |list: Vec<String>, n: usize| (!list.is_empty()).then(|| list[n % list.len()].clone());
    match mutation {
        Mutation::Rename {
            n,
            name,
            rename_uses: uses,
        } => {
            let mut found = Vec::new();
            objects_with(idl, "name", String::new(), &mut found);
            let Some(at) = pick(found, *n) else { return };
            let object = idl.pointer_mut(&at).unwrap();
            let old = object["name"].as_str().unwrap_or_default().to_string();
            object["name"] = json!(name);
            if *uses {
                rename_uses(idl, &old, name);
            }
        }
        Mutation::Retype { n, ty } => {
            let mut found = Vec::new();
            objects_with(idl, "type", String::new(), &mut found);
            let Some(at) = pick(found, *n) else { return };
            let object = idl.pointer_mut(&at).unwrap();
            // A type definition's `type` is its kind: put the type on a field.
            if object["type"].get("kind").is_none() {
                object["type"] = ty.clone();
            }
        }
        Mutation::RemoveKey { n, k } => {
            let mut found = Vec::new();
            containers(idl, false, String::new(), &mut found);
            let Some(at) = pick(found, *n) else { return };
            if let Some(o) = idl.pointer_mut(&at).and_then(Value::as_object_mut)
                && !o.is_empty()
            {
                let key = o.keys().nth(k % o.len()).unwrap().clone();
                o.remove(&key);
            }
        }
        Mutation::Duplicate { n, k } => {
            let mut found = Vec::new();
            containers(idl, true, String::new(), &mut found);
            let Some(at) = pick(found, *n) else { return };
            if let Some(items) = idl.pointer_mut(&at).and_then(Value::as_array_mut)
                && !items.is_empty()
            {
                let item = items[k % items.len()].clone();
                items.push(item);
            }
        }
        Mutation::Resize { n, count } => {
            let mut found = Vec::new();
            objects_with(idl, "fields", String::new(), &mut found);
            let Some(at) = pick(found, *n) else { return };
            let object = idl.pointer_mut(&at).unwrap();
            if let Some(fields) = object["fields"].as_array_mut() {
                if *count == 0 {
                    fields.clear();
                } else if let Some(first) = fields.first().cloned() {
                    for i in fields.len()..*count {
                        let mut field = first.clone();
                        if let Some(f) = field.as_object_mut() {
                            f.insert("name".into(), json!(format!("field_{i}")));
                        }
                        fields.push(field);
                    }
                }
            }
        }
    }
}

/// Every stage up to the formatted source, on one IDL's text.
fn every_stage(file: &str, text: &str) -> Result<(), TestCaseError> {
    let stem = file.trim_end_matches(".json");
    let parsed = match input::parse(file, stem, text) {
        Ok(parsed) => parsed,
        Err(e) => {
            let said = e.to_string();
            prop_assert!(
                said.contains(file),
                "a refusal of the file names it: {said}"
            );
            return Ok(());
        }
    };
    let mut program = model::resolve(&parsed, &Assumptions::default());
    let lengths = Lengths::default();
    value::refuse_unmeasurable(&mut program, lengths);
    let reasons = program
        .accounts
        .iter()
        .filter_map(|a| a.as_ref().err())
        .chain(program.instructions.iter().filter_map(|i| i.as_ref().err()))
        .chain(program.events.iter().filter_map(|e| e.as_ref().err()));
    for refused in reasons {
        prop_assert!(
            !refused.reason.is_empty() && !refused.name.trim().is_empty(),
            "{refused:?}"
        );
    }
    for account in program.accounts.iter().flatten() {
        measure::generated(account, lengths);
    }
    let mut full = Instances::new(Fill::Full, lengths);
    for ix in program.instructions.iter().flatten() {
        full.value_of(&Ty::Struct(ix.args.clone()), &ix.name);
    }
    for event in program.events.iter().flatten() {
        full.value_of(&Ty::Struct(event.record.clone()), &event.name);
    }
    let choices = FieldChoices::default();
    for plan in plan::plan(&program, &choices) {
        match plan {
            Plan::Build(planned) => {
                let target = Target {
                    program: &program.name,
                    source: &program.path,
                    account: program.account(&planned.account).unwrap(),
                    index: planned.index,
                    read: planned.read.clone(),
                    update: planned.update.clone(),
                };
                declares_each_once(&generate::source(&target, &planned))?;
            }
            Plan::Skip {
                reason, account, ..
            } => {
                prop_assert!(!reason.is_empty() && !account.is_empty());
            }
        }
    }
    let (arguments, skipped) = plan::plan_arguments(&program, &choices);
    for planned in &arguments {
        declares_each_once(&generate::arguments_source(
            &program,
            &planned.handlers(&program),
            planned.format,
        ))?;
    }
    let (planned_events, skipped_events) = plan::plan_events(&program);
    for planned in &planned_events {
        declares_each_once(&generate::events_source(
            &program,
            &planned.emitters(&program),
            planned.format,
            planned.self_cpi(),
        ))?;
    }
    for skip in skipped.iter().chain(&skipped_events) {
        prop_assert!(
            !skip.reason.is_empty() && !skip.name.trim().is_empty(),
            "{skip:?}"
        );
    }
    Ok(())
}

/// The source parses as Rust, and no two items at its top level share a
/// name (a collision the generator let through would not compile).
fn declares_each_once(source: &str) -> Result<(), TestCaseError> {
    let file =
        syn::parse_file(source).map_err(|e| TestCaseError::fail(format!("{e}:\n{source}")))?;
    items_declared_once(&file.items, source)
}

/// Each module's items (an Anchor program's types are in `mod state`),
/// each name once in its module.
fn items_declared_once(items: &[syn::Item], source: &str) -> Result<(), TestCaseError> {
    let mut seen = BTreeSet::new();
    for item in items {
        let name = match item {
            syn::Item::Struct(s) => s.ident.to_string(),
            syn::Item::Enum(e) => e.ident.to_string(),
            syn::Item::Fn(f) => f.sig.ident.to_string(),
            syn::Item::Const(c) if c.ident != "_" => c.ident.to_string(),
            syn::Item::Static(s) => s.ident.to_string(),
            syn::Item::Mod(m) => {
                if let Some((_, inner)) = &m.content {
                    items_declared_once(inner, source)?;
                }
                m.ident.to_string()
            }
            _ => continue,
        };
        prop_assert!(
            seen.insert(name.clone()),
            "`{name}` declared twice:\n{source}"
        );
    }
    Ok(())
}

/// 3,000 cases from a fixed seed, so that a run (and CI) is reproducible;
/// `PROPTEST_RNG_SEED=<n>` and `PROPTEST_CASES=<n>` explore further. A
/// case found that way joins `found_cases_stay_fixed`.
fn config() -> Config {
    let from_env = Config::default();
    let set = |var: &str| std::env::var_os(var).is_some();
    Config {
        cases: if set("PROPTEST_CASES") {
            from_env.cases
        } else {
            3000
        },
        rng_seed: if set("PROPTEST_RNG_SEED") {
            from_env.rng_seed
        } else {
            RngSeed::Fixed(0x1d1_5eed)
        },
        failure_persistence: None,
        ..from_env
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn no_mutated_idl_panics_and_every_refusal_names_its_item(
        which in 0usize..64,
        mutations in proptest::collection::vec(a_mutation(), 1..6),
    ) {
        let all = examples();
        let (file, mut idl) = all[which % all.len()].clone();
        for mutation in &mutations {
            apply(&mut idl, mutation);
        }
        every_stage(&file, &idl.to_string())?;
    }
}

/// Cases the property test once found, kept so they run on every seed.
#[test]
fn found_cases_stay_fixed() {
    let all = examples();
    let cases = [
        // An `Option<enum>` field renamed to a reserved name: its zero
        // value is the first variant with that variant's own fields.
        (
            "metadata.json",
            Mutation::Rename {
                n: 99,
                name: "_padding0".into(),
                rename_uses: false,
            },
        ),
    ];
    for (file, mutation) in cases {
        let (_, mut idl) = all.iter().find(|(name, _)| name == file).unwrap().clone();
        apply(&mut idl, &mutation);
        every_stage(file, &idl.to_string()).unwrap();
    }
}
