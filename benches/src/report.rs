//! What `make bench` writes besides the bencher's own table: a summary that
//! compares crates per operation, and the provenance of every number.

use std::{collections::BTreeMap, fmt::Write as _, process::Command};

use crate::{Program, Workspace};

/// The program every ratio is relative to.
pub const BASELINE: &str = "transmute";

/// One program x operation, from a run whose result was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measurement {
    pub program: String,
    pub operation: String,
    pub cus: u64,
}

/// What produced the numbers, read from the tools and files themselves.
#[derive(Clone, Debug)]
pub struct Provenance {
    pub rustc: String,
    pub linker: String,
    pub sbpf_arch: String,
    /// (crate, version) from Cargo.lock: the runtime, the harness, and
    /// each program's serializer.
    pub crates: Vec<(String, String)>,
    pub commit: String,
    pub date: String,
}

impl Provenance {
    pub fn collect(workspace: &Workspace, programs: &[Program], elfs: &[Vec<u8>]) -> Self {
        let run = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .current_dir(&workspace.root)
                .output()
                .ok()
                .filter(|out| out.status.success())
                .and_then(|out| String::from_utf8(out.stdout).ok())
                .and_then(|out| out.lines().next().map(str::to_owned))
                .unwrap_or_else(|| "unknown".into())
        };
        let linker = workspace.root.join(".tools/bin/sbpf-linker");
        let mut arches: Vec<String> = elfs
            .iter()
            .map(|elf| match solana_sbpf::elf::get_sbpf_version(elf) {
                Ok(version) => format!("{version:?}"),
                Err(_) => "unknown".into(),
            })
            .collect();
        arches.sort();
        arches.dedup();
        let dirty = run("git", &["status", "--porcelain", "--untracked-files=no"]) != "unknown";
        Self {
            rustc: run("rustc", &["--version"]),
            linker: run(linker.to_str().unwrap_or_default(), &["--version"]),
            sbpf_arch: arches.join(", "),
            crates: crate_versions(workspace, programs),
            commit: run("git", &["rev-parse", "--short=12", "HEAD"])
                + if dirty { " (uncommitted changes)" } else { "" },
            date: chrono::Utc::now().format("%Y-%m-%d").to_string(),
        }
    }

    pub fn markdown(&self) -> String {
        let crates: Vec<String> = self
            .crates
            .iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        format!(
            "- rustc: {}\n- linker: {}\n- sBPF arch: {}\n- crates: {}\n- commit: {}, {}\n",
            self.rustc,
            self.linker,
            self.sbpf_arch,
            crates.join(", "),
            self.commit,
            self.date
        )
    }
}

/// Versions from Cargo.lock of the runtime and harness crates and of every
/// dependency a program declares besides `common`.
fn crate_versions(workspace: &Workspace, programs: &[Program]) -> Vec<(String, String)> {
    let mut names: Vec<String> = ["pinocchio", "solana-compiler-builtins", "mollusk-svm"]
        .map(String::from)
        .to_vec();
    for program in programs {
        names.extend(program_crates(program));
    }
    let lock = read_toml(&workspace.root.join("Cargo.lock"));
    let packages = lock
        .get("package")
        .and_then(|p| p.as_array())
        .cloned()
        .unwrap_or_default();
    let mut versions = Vec::new();
    for name in names {
        for package in &packages {
            if package.get("name").and_then(|n| n.as_str()) == Some(name.as_str())
                && package.get("source").is_some()
            {
                let version = package
                    .get("version")
                    .and_then(|v| v.as_str())
                    .unwrap_or("?");
                versions.push((name.clone(), version.to_string()));
            }
        }
    }
    versions.sort();
    versions.dedup();
    versions
}

/// The crates a program depends on besides `common`: its serializer.
pub fn program_crates(program: &Program) -> Vec<String> {
    let manifest = read_toml(&program.dir.join("Cargo.toml"));
    manifest
        .get("dependencies")
        .and_then(|deps| deps.as_table())
        .map(|deps| {
            deps.keys()
                .filter(|name| *name != "common")
                .cloned()
                .collect()
        })
        .unwrap_or_default()
}

fn read_toml(path: &std::path::Path) -> toml::Table {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or_default()
}

/// Operations as rows, programs as columns (cheapest `full` first), each
/// cell the CUs and the ratio to the baseline; then each `.so` size.
pub fn summary_markdown(
    provenance: &Provenance,
    measurements: &[Measurement],
    sizes: &BTreeMap<String, u64>,
) -> String {
    let cus = |program: &str, operation: &str| {
        measurements
            .iter()
            .find(|m| m.program == program && m.operation == operation)
            .map(|m| m.cus)
    };
    let mut operations: Vec<&str> = Vec::new();
    for m in measurements {
        if !operations.contains(&m.operation.as_str()) {
            operations.push(&m.operation);
        }
    }
    let mut programs: Vec<&str> = sizes.keys().map(String::as_str).collect();
    let first_op = operations.first().copied().unwrap_or("full");
    programs.sort_by_key(|p| (cus(p, first_op).unwrap_or(u64::MAX), p.to_string()));

    let mut out = String::from("# Compute units per operation\n\n");
    out.push_str(&provenance.markdown());
    let _ = write!(
        out,
        "\nEach cell: CUs (ratio to `{BASELINE}`).\n\n| operation |"
    );
    for p in &programs {
        let _ = write!(out, " {p} |");
    }
    out.push_str("\n|---|");
    out.push_str(&"---:|".repeat(programs.len()));
    out.push('\n');
    for op in &operations {
        let _ = write!(out, "| {op} |");
        for p in &programs {
            let cell = match (cus(p, op), cus(BASELINE, op)) {
                (Some(c), Some(base)) if base > 0 => {
                    format!("{c} ({:.1}x)", c as f64 / base as f64)
                }
                (Some(c), _) => c.to_string(),
                (None, _) => "-".into(),
            };
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out.push_str("| .so bytes |");
    for p in &programs {
        let _ = write!(out, " {} |", sizes[*p]);
    }
    out.push('\n');
    out
}
