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
    let root = root();
    let run = run::run(
        &root,
        &root.join("benches/idl/idls").join(file),
        options,
        &mut |_| {},
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(run.failures.is_empty(), "{}", run.failures.join("\n"));
    run
}

/// The CUs of `run`'s row in `format`, `operation`, on the `full`
/// instance (a row missing or not run fails the test).
#[allow(dead_code)]
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
