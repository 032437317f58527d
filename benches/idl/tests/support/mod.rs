//! What the `make idl` test files share.

use std::path::{Path, PathBuf};

use idl::{
    measure::Measured,
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
    let root = root();
    let copy = renamed_copy(file, suffix);
    let run = run::run(&root, &copy, options, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
    run
}

/// A copy of `file` of `benches/idl/idls/` whose program is named
/// `<its name>_<suffix>`, at a path of its own that stays
/// (`target/idl-tests/<that>.json`): the IDL's path is in the generated
/// sources, so a run of an unchanged copy reuses its built programs.
pub fn renamed_copy(file: &str, suffix: &str) -> PathBuf {
    let root = root();
    let text = std::fs::read_to_string(root.join("benches/idl/idls").join(file)).unwrap();
    let mut idl: serde_json::Value = serde_json::from_str(&text).unwrap();
    let name = format!("{}_{suffix}", idl["metadata"]["name"].as_str().unwrap());
    idl["metadata"]["name"] = name.clone().into();
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
