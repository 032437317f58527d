//! What `make bench` writes, from a real run on a copy of one program, and
//! how the Makefile chooses the toolchain that the report then names.

use std::{fs, process::Command};

use benches::{Framework, Workspace, bench};

/// A workspace holding the real transmute binaries, every shape and on
/// solana-program's entrypoint, as token program `demo`.
fn demo_workspace() -> (tempfile::TempDir, Workspace) {
    let current = Workspace::current();
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("programs/token/demo")).unwrap();
    fs::write(
        dir.path().join("programs/token/demo/Cargo.toml"),
        "[package]\nname = \"demo-program\"\n",
    )
    .unwrap();
    for transmute in current.programs().unwrap() {
        if transmute.name != "transmute" {
            continue;
        }
        let elf = current.elf(&transmute).unwrap_or_else(|e| panic!("{e}"));
        let deploy = dir
            .path()
            .join("target/deploy/token")
            .join(transmute.shape.name());
        fs::create_dir_all(&deploy).unwrap();
        fs::write(deploy.join("demo.so"), elf).unwrap();
    }
    let native = current
        .framework_programs()
        .into_iter()
        .find(|p| p.framework == Framework::SOLANA_PROGRAM && p.name == "token/transmute")
        .expect("transmute on solana-program's entrypoint");
    let elf = current.elf(&native).unwrap_or_else(|e| panic!("{e}"));
    let deploy = dir.path().join("target/deploy/solana-program/token");
    fs::create_dir_all(&deploy).unwrap();
    fs::write(deploy.join("demo.so"), elf).unwrap();
    let workspace = Workspace::at(dir.path());
    (dir, workspace)
}

#[test]
fn run_writes_summary_json_chart_and_bencher_table() {
    let (_dir, workspace) = demo_workspace();
    let run = bench::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let out = workspace.benches_dir();

    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    assert_eq!(summary, run.summary_markdown());
    assert!(summary.contains("- rustc: rustc "), "{summary}");
    assert!(summary.contains("| operation | demo |"), "{summary}");
    let full = run
        .measurements
        .iter()
        .find(|m| m.operation == "full")
        .unwrap()
        .cus;
    assert!(summary.contains(&format!("| full | {full} |")), "{summary}");
    assert!(summary.contains("| .so bytes |"), "{summary}");

    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let records = json["results"].as_array().unwrap();
    // Three shapes and solana-program's entrypoint, three operations each.
    assert_eq!(records.len(), 12);
    assert_eq!(
        records
            .iter()
            .filter(|r| r["framework"] == "solana-program" && r["program"] == "token/demo")
            .count(),
        3
    );
    assert_eq!(records[0]["program"], "demo");
    assert_eq!(records[0]["family"], "token");
    assert_eq!(records[0]["shape"], "exact");
    assert_eq!(records[0]["operation"], "full");
    assert_eq!(records[0]["cus"], full);
    let shapes: Vec<&str> = records
        .iter()
        .filter(|r| r["framework"] == "pinocchio")
        .map(|r| r["shape"].as_str().unwrap())
        .collect();
    assert_eq!(shapes.iter().filter(|s| **s == "unchecked").count(), 3);
    assert!(
        summary.contains("| crate | exact | at_least | unchecked |"),
        "{summary}"
    );
    assert!(summary.contains("- **demo**: `full` "), "{summary}");
    assert!(
        json["provenance"]["rustc"]
            .as_str()
            .unwrap()
            .starts_with("rustc ")
    );

    let svg = fs::read_to_string(out.join("compute_units.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains(">\nfull\n<"),
        "chart names the operations"
    );
    assert!(
        svg.contains(&format!(">\n{full}\n<")),
        "chart shows the CUs on the bars"
    );

    let table = fs::read_to_string(out.join("compute_units.md")).unwrap();
    assert!(
        table.contains(&format!("| demo::full | {full} | - new - |")),
        "{table}"
    );
}

#[test]
fn report_names_cargo_build_sbf_when_it_built_the_programs() {
    let (dir, workspace) = demo_workspace();
    fs::write(
        dir.path().join("target/deploy/token/exact/demo.toolchain"),
        "solana-cargo-build-sbf 9.9.9, platform-tools v1.99\n",
    )
    .unwrap();
    let run = bench::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let summary = run.summary_markdown();
    assert!(
        summary.contains(
            "- toolchain: cargo build-sbf (solana-cargo-build-sbf 9.9.9, platform-tools v1.99)"
        ),
        "{summary}"
    );
    assert!(!summary.contains("sbpf-linker"), "{summary}");
}

fn make(args: &[&str]) -> (bool, String, String) {
    let output = Command::new("make")
        .args(args)
        .current_dir(&Workspace::current().root)
        .output()
        .unwrap();
    let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap();
    (
        output.status.success(),
        text(output.stdout),
        text(output.stderr),
    )
}

/// A stand-in for the Solana CLI's cargo: records its arguments, answers
/// `build-sbf --version`, and writes an `.so` where `build-sbf` would.
const FAKE_CARGO: &str = r#"#!/usr/bin/env bash
echo "$*" >> "$FAKE_CARGO_LOG"
[[ $1 == build-sbf ]] || exit 1
if [[ $2 == --version ]]; then echo "solana-cargo-build-sbf 9.9.9"; echo "platform-tools v1.51"; exit 0; fi
while (($#)); do
  case $1 in --manifest-path) manifest=$2; shift ;; --sbf-out-dir) out=$2; shift ;; esac
  shift
done
package=$(sed -n 's/^name *= *"\(.*\)"/\1/p' "$manifest" | head -1)
mkdir -p "$out" && echo elf > "$out/${package//-/_}.so"
"#;

#[test]
fn build_sbf_toolchain_builds_every_program_with_cargo_build_sbf() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    fs::create_dir_all(&bin).unwrap();
    fs::write(bin.join("cargo"), FAKE_CARGO).unwrap();
    fs::set_permissions(bin.join("cargo"), fs::Permissions::from_mode(0o755)).unwrap();
    let log = dir.path().join("cargo.log");
    let deploy = dir.path().join("deploy");
    let output = Command::new("make")
        .args([
            "--no-print-directory",
            "programs",
            "SBF_TOOLCHAIN=build-sbf",
        ])
        .arg(format!("DEPLOY={}", deploy.display()))
        .arg(format!(
            "CARGO_TARGET_DIR={}",
            dir.path().join("target").display()
        ))
        .current_dir(&Workspace::current().root)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("FAKE_CARGO_LOG", &log)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let calls = fs::read_to_string(&log).unwrap();
    let workspace = Workspace::current();
    for program in workspace.programs().unwrap() {
        let build = format!(
            "build-sbf --manifest-path programs/{}/{}/Cargo.toml",
            program.family.name(),
            program.name
        );
        assert!(calls.contains(&build), "{calls}");
        let so = program
            .so_path
            .strip_prefix(workspace.deploy_dir())
            .unwrap();
        assert!(deploy.join(so).is_file(), "{}", so.display());
        assert_eq!(
            fs::read_to_string(deploy.join(so).with_extension("toolchain")).unwrap(),
            "solana-cargo-build-sbf 9.9.9, platform-tools v1.51\n"
        );
        assert!(stdout.contains(&format!("  {} ", so.display())), "{stdout}");
    }
    assert!(!calls.contains("-Z build-std"), "{calls}");
    // The quiet build: a line saying what it builds, one line per program
    // (the floors and every framework's included), and a count.
    let programs = workspace.programs().unwrap().len()
        + workspace.floor().len()
        + workspace.framework_programs().len();
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), programs + 2, "{stdout}");
    assert!(lines[0].starts_with("make programs: building"), "{stdout}");
    assert!(
        lines[programs + 1].starts_with(&format!("make programs: {programs} programs built")),
        "{stdout}"
    );
    for line in &lines[1..=programs] {
        assert!(
            line.contains(".so ") && line.contains(" bytes  ["),
            "{line}"
        );
    }
}

#[test]
fn unknown_toolchain_is_refused() {
    let (ok, _, stderr) = make(&["--no-print-directory", "all", "SBF_TOOLCHAIN=platform"]);
    assert!(!ok);
    assert!(
        stderr.contains("SBF_TOOLCHAIN is 'platform'; use upstream (the default) or build-sbf"),
        "{stderr}"
    );
}

#[test]
fn missing_cargo_build_sbf_says_how_to_install_it() {
    let has_build_sbf = Command::new("cargo")
        .args(["build-sbf", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    let (ok, _, stderr) = make(&[
        "--no-print-directory",
        "check-build-sbf",
        "SBF_TOOLCHAIN=build-sbf",
    ]);
    if has_build_sbf {
        assert!(ok, "{stderr}");
    } else {
        assert!(!ok);
        assert!(
            stderr.starts_with(
                "SBF_TOOLCHAIN=build-sbf: cargo build-sbf not found. Install the Solana CLI"
            ),
            "{stderr}"
        );
    }
}

/// The message family's report, from a real run of copies of its programs:
/// a table per operation, encoded sizes, what each operation validates,
/// 30 records per program with size and encoded bytes, and the chart.
#[test]
fn message_report_has_tables_records_and_chart() {
    let current = Workspace::current();
    let dir = tempfile::tempdir().unwrap();
    let mut names = Vec::new();
    for program in current.programs().unwrap() {
        if program.family != benches::Family::Message {
            continue;
        }
        let folder = dir.path().join("programs/message").join(&program.name);
        fs::create_dir_all(&folder).unwrap();
        fs::write(folder.join("Cargo.toml"), "[package]\n").unwrap();
        let deploy = dir.path().join("target/deploy/message");
        fs::create_dir_all(&deploy).unwrap();
        let elf = current.elf(&program).unwrap_or_else(|e| panic!("{e}"));
        fs::write(deploy.join(format!("{}.so", program.name)), elf).unwrap();
        names.push(program.name);
    }
    let workspace = Workspace::at(dir.path());
    let run = bench::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let out = workspace.benches_dir();

    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    for heading in [
        "### full",
        "### read_blockhash",
        "### sanitize",
        "### read_instruction",
        "### push_key",
        "### Encoded size",
        "### What each operation validates",
    ] {
        assert!(summary.contains(heading), "{heading} missing: {summary}");
    }
    assert!(
        summary
            .contains("| format | 160 | 904 | 3232 | 5400 | 7448 | 10136 | CUs per KB at 10136 |")
    );
    let sanitize = run
        .message_cell("borsh", "sanitize", 10136)
        .expect("borsh sanitize at 10136");
    assert!(
        summary.contains(&format!(" {} |", sanitize.cus)),
        "{summary}"
    );

    // The cheapest format per size names every format that ties.
    let table = run
        .message_cell("offset_table", "read_blockhash", 904)
        .unwrap()
        .cus;
    let zerocopy = run
        .message_cell("zerocopy", "read_blockhash", 904)
        .unwrap()
        .cus;
    let tie = format!("904: offset_table = zerocopy ({table})");
    assert_eq!(
        summary.contains(&tie),
        table == zerocopy,
        "{tie}: {summary}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    let records = json["results"].as_array().unwrap();
    assert_eq!(records.len(), names.len() * 30);
    let record = records
        .iter()
        .find(|r| r["row"] == "message/borsh::sanitize/10136")
        .expect("the row");
    assert_eq!(record["family"], "message");
    assert_eq!(record["program"], "borsh");
    assert_eq!(record["operation"], "sanitize");
    assert_eq!(record["size"], 10136);
    assert_eq!(record["cus"], sanitize.cus);
    assert!(record["shape"].is_null());
    assert_eq!(record["encoded_bytes"], sanitize.encoded_bytes.unwrap());
    assert_eq!(
        json["message_validates"]["borsh"]["read_blockhash"],
        "whole message"
    );
    assert_eq!(
        json["message_validates"]["offset_table"]["read_blockhash"],
        "what it reads"
    );

    let svg = fs::read_to_string(out.join("message_cus.svg")).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains(">\nsanitize\n<"),
        "panel per operation"
    );
    let table = fs::read_to_string(out.join("message/compute_units.md")).unwrap();
    assert!(
        table.contains(&format!(
            "| message/borsh::sanitize/10136 | {} | - new - |",
            sanitize.cus
        )),
        "{table}"
    );
}

/// Two separate `make bench` processes write the same results.json, byte
/// for byte, but for the date.
#[test]
fn results_json_is_the_same_across_processes() {
    let (_dir, workspace) = demo_workspace();
    let run = || {
        let output = Command::new(env!("CARGO_BIN_EXE_bench"))
            .env("BENCH_WORKSPACE", &workspace.root)
            .env("RUST_LOG", "error")
            .output()
            .unwrap();
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let text = fs::read_to_string(workspace.benches_dir().join("results.json")).unwrap();
        let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
        json["provenance"]["date"] = serde_json::Value::Null;
        (text, json)
    };
    let (first_text, first) = run();
    let (second_text, second) = run();
    assert_eq!(first, second);
    let without_date = |text: &str| -> String {
        text.lines()
            .filter(|l| !l.trim_start().starts_with("\"date\""))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(without_date(&first_text), without_date(&second_text));
}

/// A row the LiteSVM replay found faulting with mainnet's features
/// (benches/mainnet.json) is marked † with a footnote in the summary and
/// `mainnet_ok: false` in results.json; the others are `true`.
#[test]
fn rows_that_fault_on_mainnet_are_marked() {
    let (dir, workspace) = demo_workspace();
    fs::create_dir_all(dir.path().join("benches")).unwrap();
    fs::write(
        dir.path().join("benches/mainnet.json"),
        r#"{"litesvm": "0.18.1", "rows": {"at_least/demo::full": "InstructionError(0, ProgramFailedToComplete): Program X failed: Access violation in stack frame 3 at address 0x200003008 of size 8"}}"#,
    )
    .unwrap();
    let run = bench::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let summary = run.summary_markdown();
    let full = run
        .measurements
        .iter()
        .find(|m| m.operation == "full" && m.shape == benches::Shape::AtLeast)
        .unwrap()
        .cus;
    // In the shapes table (the footprint table lists `exact` only).
    assert!(summary.contains(&format!("| {full} † |")), "{summary}");
    assert_eq!(summary.matches(" †").count(), 1, "{summary}");
    assert!(
        summary.contains(
            "† Faults when replayed in LiteSVM 0.18.1 with mainnet's runtime features (`make litesvm`; benches/mainnet.json): `Access violation in stack frame N at address N of size N`."
        ),
        "{summary}"
    );
    let json: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(workspace.benches_dir().join("results.json")).unwrap(),
    )
    .unwrap();
    for record in json["results"].as_array().unwrap() {
        let faulted = record["row"] == "at_least/demo::full";
        assert_eq!(record["mainnet_ok"], !faulted, "{record}");
    }
}
