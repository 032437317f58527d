//! Every host command compiles the runtime with one feature set: each host
//! crate's own build (`cargo run -p <crate>`, as make all, make idl and make
//! profile SO= run it) and its own tests (`cargo test -p <crate>`) resolve
//! every dependency with the features make test's `cargo test` of all of
//! them gives it (benches/workspace-hack).
//! Where they differ, cargo compiles that dependency, and all that depends
//! on it, once per command.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use benches::Workspace;

/// The host crates: the packages the Makefile's `TESTED` names.
fn host_crates(root: &Path) -> Vec<String> {
    let makefile = std::fs::read_to_string(root.join("Makefile")).expect("the Makefile");
    let tested = makefile
        .lines()
        .find_map(|line| line.strip_prefix("TESTED := "))
        .expect("the Makefile sets TESTED");
    let crates: Vec<String> = tested
        .split_whitespace()
        .filter(|word| *word != "-p")
        .map(str::to_string)
        .collect();
    assert!(
        crates.contains(&"benches".to_string()),
        "TESTED names benches: {tested}"
    );
    crates
}

/// A dependency's compiled unit: its package, target and platform (the host
/// or the target), and the features cargo resolved for it.
type Units = BTreeMap<(String, String, String), BTreeSet<String>>;

/// The units `cargo <args>` would compile for registry dependencies, from
/// cargo's unit graph (nothing is built).
fn units(root: &Path, args: &[&str]) -> Units {
    let output = Command::new(env!("CARGO"))
        .args(args)
        .args(["--locked", "-Z", "unstable-options", "--unit-graph"])
        .current_dir(root)
        .output()
        .unwrap_or_else(|e| panic!("cargo {}: {e}", args.join(" ")));
    assert!(
        output.status.success(),
        "cargo {} --unit-graph failed:\n{}",
        args.join(" "),
        String::from_utf8_lossy(&output.stderr)
    );
    let graph: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("cargo's unit graph is JSON");
    let mut units = Units::new();
    for unit in graph["units"].as_array().expect("the unit graph's units") {
        let package = unit["pkg_id"].as_str().expect("a unit's package");
        if unit["mode"] != "build" || package.starts_with("path+") {
            continue;
        }
        let key = (
            package.rsplit('#').next().unwrap_or(package).to_string(),
            unit["target"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
            unit["platform"].as_str().unwrap_or("host").to_string(),
        );
        let features = unit["features"].as_array().expect("a unit's features");
        units.insert(
            key,
            features
                .iter()
                .map(|f| f.as_str().unwrap_or_default().to_string())
                .collect(),
        );
    }
    units
}

#[test]
fn each_host_crates_build_and_tests_compile_its_dependencies_as_cargo_test_of_all_does() {
    let root = Workspace::current().root;
    let crates = host_crates(&root);
    let mut test_args = vec!["test", "--no-run"];
    for crate_name in &crates {
        test_args.extend(["-p", crate_name]);
    }
    let tested = units(&root, &test_args);
    let mut drifts = Vec::new();
    for crate_name in &crates {
        for command in [["build", "--bins"], ["test", "--no-run"]] {
            let built = units(&root, &[command[0], "-p", crate_name, command[1]]);
            let command = format!("cargo {} -p {crate_name}", command[0]);
            assert!(
                built.len() > 100,
                "{command}: only {} dependency units",
                built.len()
            );
            for (unit, features) in &built {
                let in_test = tested.get(unit);
                if in_test != Some(features) {
                    let (package, target, platform) = unit;
                    drifts.push(format!(
                        "{package} ({target}, {platform}) for `{command}`: {features:?}; for `cargo test` of all: {:?}",
                        in_test.map(|f| f.iter().collect::<Vec<_>>()).unwrap_or_default()
                    ));
                }
            }
        }
    }
    assert!(
        drifts.is_empty(),
        "{} dependencies compile with other features than under cargo test, so each is compiled twice; \
         give benches/workspace-hack/Cargo.toml the union (its header says how it was generated):\n  {}",
        drifts.len(),
        drifts.join("\n  ")
    );
}
