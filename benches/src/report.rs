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

/// Versions from Cargo.lock of the runtime and harness crates and of each
/// program's serializer, as the lock resolved them for that program.
fn crate_versions(workspace: &Workspace, programs: &[Program]) -> Vec<(String, String)> {
    let lock = Lock::read(workspace);
    let mut versions: Vec<(String, String)> =
        ["pinocchio", "solana-compiler-builtins", "mollusk-svm"]
            .iter()
            .filter_map(|name| Some((name.to_string(), lock.version(name)?)))
            .collect();
    for program in programs {
        versions.extend(lock.program_crates(program));
    }
    versions.sort();
    versions.dedup();
    versions
}

/// The parts of Cargo.lock the report needs.
pub struct Lock {
    packages: Vec<toml::Value>,
}

impl Lock {
    pub fn read(workspace: &Workspace) -> Self {
        let lock = read_toml(&workspace.root.join("Cargo.lock"));
        let packages = lock.get("package").and_then(|p| p.as_array()).cloned();
        Self {
            packages: packages.unwrap_or_default(),
        }
    }

    fn field<'a>(package: &'a toml::Value, key: &str) -> &'a str {
        package
            .get(key)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    }

    /// The version of a crate that appears once in the lock.
    fn version(&self, name: &str) -> Option<String> {
        let mut found = self
            .packages
            .iter()
            .filter(|p| Self::field(p, "name") == name);
        let only = found.next()?;
        found
            .next()
            .is_none()
            .then(|| Self::field(only, "version").to_string())
    }

    /// (crate, version) of what `<program>-program` depends on besides
    /// `common`: its serializer (nothing for the raw cast).
    pub fn program_crates(&self, program: &Program) -> Vec<(String, String)> {
        let package = format!("{}-program", program.name);
        let Some(entry) = self
            .packages
            .iter()
            .find(|p| Self::field(p, "name") == package)
        else {
            return Vec::new();
        };
        let deps = entry
            .get("dependencies")
            .and_then(|d| d.as_array())
            .cloned();
        deps.unwrap_or_default()
            .iter()
            .filter_map(|dep| {
                // "name" when one version is locked, else "name version".
                let mut words = dep.as_str()?.split(' ');
                let name = words.next()?.to_string();
                let version = match words.next() {
                    Some(version) => version.to_string(),
                    None => self.version(&name)?,
                };
                Some((name, version))
            })
            .filter(|(name, _)| name != "common")
            .collect()
    }
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
