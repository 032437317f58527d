//! What the `make idl` test files share.

use std::{
    path::{Path, PathBuf},
    sync::OnceLock,
};

use idl::{
    measure::Measured,
    plan::FieldChoices,
    render::RowFormat,
    run::{self, Options, Run},
};

/// The repository's root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `make idl` on `file` of `benches/idl/idls/` with `options`: a run with
/// a contract failure fails the test.
pub fn run_idl(file: &str, options: &Options) -> Run {
    run_idl_heard(file, options, &mut Vec::new())
}

/// [`run_idl`], with the run's progress lines into `heard`.
pub fn run_idl_heard(file: &str, options: &Options, heard: &mut Vec<String>) -> Run {
    let root = root();
    let run = run::run(
        &root,
        &root.join("benches/idl/idls").join(file),
        options,
        &mut |line| heard.push(line.to_string()),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
    run
}

/// `make idl` on a copy of `file` whose program is named
/// `<its name>_<suffix>` ([`renamed_copy`]): its run folder
/// (`target/benches/idl/<that>/`) is its own, so no other test's run of
/// `file` (with other options, or another release) rewrites it while this
/// one builds and measures.
pub fn run_idl_renamed(file: &str, suffix: &str, options: &Options) -> Run {
    run_copy(&renamed_copy(file, suffix), options)
}

/// `make idl` on the IDL at `copy` (one of [`renamed_copy`]'s or
/// [`accounts_copy`]'s) with `options`: a run with a contract failure
/// fails the test.
pub fn run_copy(copy: &Path, options: &Options) -> Run {
    let run = run::run(&root(), copy, options, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
    run
}

/// A copy of `file` of `benches/idl/idls/` whose program is named
/// `<its name>_<suffix>`, at a path of its own that stays
/// (`target/idl-tests/<that>.json`): the IDL's path is in the generated
/// sources, so a run of an unchanged copy reuses its built programs.
pub fn renamed_copy(file: &str, suffix: &str) -> PathBuf {
    copy(file, suffix, |_| {})
}

/// [`renamed_copy`] with the IDL's accounts alone (no instructions, no
/// events), for a test that reads account rows only: a run of it builds
/// the programs that hold the accounts, not the instruction and event
/// programs a run of `file` builds under its own name.
pub fn accounts_copy(file: &str, suffix: &str) -> PathBuf {
    copy(file, suffix, |idl| {
        idl["instructions"] = serde_json::json!([]);
        idl["events"] = serde_json::json!([]);
    })
}

/// A copy of `file` of `benches/idl/idls/`, its program renamed
/// `<its name>_<suffix>`, then changed by `edit`.
fn copy(file: &str, suffix: &str, edit: impl FnOnce(&mut serde_json::Value)) -> PathBuf {
    let root = root();
    let text = std::fs::read_to_string(root.join("benches/idl/idls").join(file)).unwrap();
    let mut idl: serde_json::Value = serde_json::from_str(&text).unwrap();
    let name = format!("{}_{suffix}", idl["metadata"]["name"].as_str().unwrap());
    idl["metadata"]["name"] = name.clone().into();
    edit(&mut idl);
    let copies = root.join("target/idl-tests");
    std::fs::create_dir_all(&copies).unwrap();
    let copy = copies.join(format!("{name}.json"));
    let text = idl.to_string();
    if std::fs::read_to_string(&copy).ok().as_deref() != Some(text.as_str()) {
        // Whole: another test may be reading it.
        benches::files::write_whole(&copy, &text).unwrap();
    }
    copy
}

/// `make idl` on one of `idls/` with the fields `READ=`, `UPDATE=` and
/// `ARG=` name.
fn run_example(file: &str, read: &str, update: &str, arg: &str) -> Run {
    let options = Options {
        fields: FieldChoices::parse(read, update)
            .and_then(|f| f.with_args(arg))
            .unwrap(),
        ..Options::default()
    };
    run_idl(file, &options)
}

/// `idls/token.json`: `read` the owner, `update` the amount. Run once for
/// every test that reads it (a run rewrites its folder's files): the
/// examples', and Anchor 1.x's instruction and event moves (its `ARG=` is
/// empty, so its instruction and event programs are the default run's).
pub fn run_token_example() -> Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        run_example(
            "token.json",
            "TokenAccount.owner",
            "TokenAccount.amount",
            "",
        )
    })
    .clone()
}

/// `idls/metadata.json`: `read` the royalty, and `update_metadata` stores
/// it, as Anchor 2's `set_record` does. Run once, as the token example.
pub fn run_metadata_example() -> Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        run_example(
            "metadata.json",
            "Metadata.seller_fee_basis_points",
            "",
            "update_metadata.data.seller_fee_basis_points",
        )
    })
    .clone()
}

/// The CUs of `run`'s row in `format`, `operation`, on the `full`
/// instance (a row missing or not run fails the test).
pub fn cus(run: &Run, format: RowFormat, operation: &str) -> u64 {
    let row = run
        .rows
        .iter()
        .find(|r| r.format == format && r.operation == operation && r.instance == "full")
        .unwrap_or_else(|| panic!("no {} {operation} row", format.name()));
    match row.outcome {
        Measured::Ran { cus, .. } => cus,
        Measured::CannotRun(ref why) => panic!("{} {operation}: {why}", format.name()),
    }
}
