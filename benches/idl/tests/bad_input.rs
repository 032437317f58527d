//! What `make idl` says about input it cannot use: each message names the
//! file, the account, the type and field, and what to do; an account that
//! cannot be represented is reported with its reason while the others
//! still run; nothing panics.

use std::{fs, path::Path};

use idl::{
    input::{self, Assumptions},
    model,
    plan::{self, FieldChoices, Plan},
    run::{self, Options},
};

/// An Anchor (spec 0.1.0) IDL with these accounts and types.
fn idl(accounts: &[&str], types: &str) -> String {
    let accounts: Vec<String> = accounts
        .iter()
        .enumerate()
        .map(|(i, name)| {
            format!(r#"{{"name": "{name}", "discriminator": [{i}, 1, 2, 3, 4, 5, 6, 7]}}"#)
        })
        .collect();
    format!(
        r#"{{"address": "x", "metadata": {{"name": "bad", "version": "0", "spec": "0.1.0"}},
            "instructions": [], "accounts": [{}], "types": [{types}]}}"#,
        accounts.join(",")
    )
}

const SMALL: &str = r#"{"name": "Small", "serialization": "bytemuck", "repr": {"kind": "c"},
    "type": {"kind": "struct", "fields": [{"name": "value", "type": "u64"}]}}"#;

/// Each unsupported account's reason, by account.
fn reasons(text: &str) -> Vec<(String, String)> {
    let parsed = input::parse("bad.json", "bad", text).unwrap();
    model::resolve(&parsed, &Assumptions::default())
        .accounts
        .into_iter()
        .filter_map(Result::err)
        .map(|u| (u.name, u.reason))
        .collect()
}

#[test]
fn what_an_account_cannot_use_is_named_and_the_others_resolve() {
    let types = [
        SMALL,
        r#"{"name": "Unknown", "type": {"kind": "struct", "fields": [{"name": "pool", "type": {"defined": {"name": "Pool"}}}]}}"#,
        r#"{"name": "Generic", "generics": [{"kind": "type", "name": "T"}], "type": {"kind": "struct", "fields": [{"name": "x", "type": {"generic": "T"}}]}}"#,
        r#"{"name": "Wide", "type": {"kind": "struct", "fields": [{"name": "big", "type": "u256"}]}}"#,
    ]
    .join(",");
    let text = idl(&["Small", "Unknown", "Generic", "Wide", "Missing"], &types);
    assert_eq!(
        reasons(&text),
        [
            (
                "Unknown".into(),
                "type `Unknown`, field `pool`: unknown type `Pool` (not in the IDL's `types`)".into()
            ),
            (
                "Generic".into(),
                "type `Generic` is generic (`T`); make idl does not instantiate generics".into()
            ),
            (
                "Wide".into(),
                "type `Wide`, field `big`: `U256` is not a type make idl can lay out yet (u256/i256)".into()
            ),
            ("Missing".into(), "no type named `Missing` in `types`".into()),
        ]
    );
}

#[test]
fn a_zero_copy_account_with_a_vec_or_over_10_mib_has_no_row_and_says_why() {
    let types = [
        SMALL,
        r#"{"name": "Listy", "serialization": "bytemuck", "type": {"kind": "struct", "fields": [{"name": "n", "type": "u8"}, {"name": "items", "type": {"vec": "u8"}}]}}"#,
        r#"{"name": "Huge", "serialization": "bytemuck", "type": {"kind": "struct", "fields": [{"name": "n", "type": "u64"}, {"name": "bytes", "type": {"array": ["u8", 11000000]}}]}}"#,
    ]
    .join(",");
    let parsed =
        input::parse("bad.json", "bad", &idl(&["Small", "Listy", "Huge"], &types)).unwrap();
    let program = model::resolve(&parsed, &Assumptions::default());
    let plans = plan::plan(&program, &FieldChoices::default());
    let skipped = |account: &str, format: &str| {
        plans
            .iter()
            .find_map(|p| match p {
                Plan::Skip {
                    account: a,
                    format: f,
                    reason,
                } if a == account && f.name() == format => Some(reason.clone()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{account} {format} has a row"))
    };
    assert_eq!(
        skipped("Listy", "bytemuck"),
        "type `Listy`, field `items`: a `Vec`, string or bytes has no fixed layout in a zero-copy account"
    );
    assert_eq!(
        skipped("Huge", "bytemuck"),
        "11000016 bytes, more than an account may hold (10 MiB)"
    );
    assert!(
        plans
            .iter()
            .any(|p| matches!(p, Plan::Build(b) if b.account == "Small")),
        "the account that fits still runs"
    );
}

#[test]
fn read_and_update_choices_are_checked_against_the_record() {
    assert_eq!(
        FieldChoices::parse("Small", "").unwrap_err(),
        "READ=Small: give Account.field, e.g. READ=LbPair.active_id"
    );
    let parsed = input::parse("bad.json", "bad", &idl(&["Small"], SMALL)).unwrap();
    let program = model::resolve(&parsed, &Assumptions::default());
    let choices = FieldChoices::parse("Small.nothing", "").unwrap();
    let plans = plan::plan(&program, &choices);
    assert!(plans.iter().all(|p| matches!(
        p,
        Plan::Skip { reason, .. } if reason == "READ=Small.nothing: `Small` has no field `nothing`"
    )));
}

#[test]
fn files_that_are_no_idl_are_refused_by_name() {
    let dir = std::env::temp_dir().join(format!("idl-bad-input-{}", std::process::id()));
    fs::create_dir_all(&dir).unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cases = [
        ("missing.json", None, "cannot read it"),
        ("text.json", Some("not json at all"), "not JSON"),
        (
            "codama.json",
            Some(r#"{"kind": "rootNode", "standard": "codama"}"#),
            "a Codama IDL",
        ),
        (
            "other.json",
            Some(r#"{"hello": 1}"#),
            "not an IDL make idl knows",
        ),
        (
            "empty.json",
            Some(r#"{"version": "1", "name": "e", "accounts": []}"#),
            "declares no accounts",
        ),
    ];
    for (name, text, says) in cases {
        let path = dir.join(name);
        if let Some(text) = text {
            fs::write(&path, text).unwrap();
        }
        let err = run::run(&root, &path, &Options::default(), &mut |_| {})
            .err()
            .unwrap_or_else(|| panic!("{name} was accepted"));
        assert!(err.starts_with(&path.display().to_string()), "{err}");
        assert!(err.contains(says), "{name}: {err}");
    }
    fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_spec_file_whose_account_carries_its_type_inline_is_read() {
    // `idls/inline_accounts.json`: spec 0.1.0, the account `Global` with its
    // type inline (legacy spellings inside: `publicKey`, a `defined` name
    // as a string) and no entry of its own in `types`.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("idls/inline_accounts.json");
    let parsed = input::read(&path).unwrap();
    let program = model::resolve(&parsed, &Assumptions::default());
    let global = program
        .account("Global")
        .unwrap_or_else(|| panic!("Global not resolved: {:?}", program.accounts));
    assert_eq!(
        global.discriminator,
        [167, 232, 232, 177, 200, 108, 114, 127]
    );
    assert!(!global.assumed, "the account's kind is the file's");
    let fields: Vec<&str> = global
        .record
        .fields
        .iter()
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(
        fields,
        [
            "initialized",
            "authority",
            "fee_recipient",
            "fee_basis_points",
            "curve"
        ]
    );
    // `publicKey` and `pubkey` are both the spec's `pubkey`.
    assert_eq!(global.record.fields[1].ty, model::types::Ty::Pubkey);
    assert_eq!(global.record.fields[2].ty, model::types::Ty::Pubkey);
    assert!(program.instructions.iter().all(Result::is_ok));
}
