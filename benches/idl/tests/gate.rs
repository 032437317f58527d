//! `make idl ... BASELINE=<results.json>`, as a program team's CI runs it:
//! exit 0 against the run's own results, exit 1 naming each moved row
//! against a tampered copy, exit 2 on a file that is not a run's results.

use std::{path::Path, process::Command};

use serde_json::Value;

use crate::support::root;

/// `make idl IDL=idls/maps.json BASELINE=<baseline>`: its status and stderr.
fn make_idl(baseline: Option<&Path>) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_idl"));
    command
        .arg("benches/idl/idls/maps.json")
        .current_dir(root())
        .env("RUST_LOG", "error");
    if let Some(baseline) = baseline {
        command.env("BASELINE", baseline);
    }
    let output = command.output().unwrap();
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn a_moved_cu_or_byte_fails_the_run_and_is_named() {
    let (status, said) = make_idl(None);
    assert_eq!(status, 0, "{said}");
    let results = root().join("target/benches/idl/map_arguments/results.json");
    let dir = tempfile::tempdir().unwrap();

    let same = dir.path().join("same.json");
    std::fs::copy(&results, &same).unwrap();
    let (status, said) = make_idl(Some(&same));
    assert_eq!(status, 0, "against its own results: {said}");

    let mut records: Vec<Value> =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    let cus = records[0]["cus"].as_u64().unwrap();
    records[0]["cus"] = (cus + 1).into();
    let bytes = records[1]["account_bytes"].as_u64().unwrap();
    records[1]["account_bytes"] = (bytes - 1).into();
    let (first, second) = (
        records[0]["row"].as_str().unwrap().to_string(),
        records[1]["row"].as_str().unwrap().to_string(),
    );
    let tampered = dir.path().join("tampered.json");
    std::fs::write(&tampered, serde_json::to_string(&records).unwrap()).unwrap();
    let (status, said) = make_idl(Some(&tampered));
    assert_eq!(status, 1, "{said}");
    assert!(said.contains("2 rows moved"), "{said}");
    assert!(
        said.contains(&format!("{first}: cus {} -> {cus}", cus + 1)),
        "{said}"
    );
    assert!(
        said.contains(&format!("{second}: account_bytes {} -> {bytes}", bytes - 1)),
        "{said}"
    );

    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{}").unwrap();
    let (status, said) = make_idl(Some(&broken));
    assert_eq!(status, 2, "{said}");
    assert!(said.contains("not a make idl run's results.json"), "{said}");
}
