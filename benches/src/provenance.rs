//! What produced a run's numbers, read from the tools and files
//! themselves: the toolchain, the linker, the sBPF arch, the runtime
//! features and each crate's version. Every report states it: `make
//! bench`'s, `make idl`'s and the matrices'.

use std::{collections::BTreeMap, path::Path, process::Command};

use serde::Serialize;

use crate::{
    Program, Workspace,
    lock::Lock,
    program::{Framework, read_toml},
};

/// What produced the numbers, read from the tools and files themselves.
#[derive(Clone, Debug, Serialize)]
pub struct Provenance {
    /// `cargo build-sbf --version` where `make all SBF_TOOLCHAIN=build-sbf`
    /// built the programs; `None` for the default upstream route.
    pub build_sbf: Option<String>,
    pub rustc: String,
    /// The LLVM that rustc generates the programs' code with (`rustc -vV`).
    pub llvm: String,
    /// The workspace's `[profile.release]`, which builds every program.
    pub profile: String,
    pub linker: String,
    pub sbpf_arch: String,
    /// The runtime features the numbers were measured and replayed with:
    /// Mollusk's (every feature enabled) and the LiteSVM replay's
    /// (mainnet's, as the locked litesvm lists them).
    pub runtime_features: String,
    /// Crate -> version from Cargo.lock: the runtime, the harness, and
    /// each program's serializer.
    pub crates: BTreeMap<String, String>,
    pub commit: String,
    pub date: String,
}

/// The runtime features behind every number: Mollusk enables every
/// feature the runtime has; `make litesvm` replays each case also with
/// the features active on mainnet, as the replay's locked litesvm
/// (`lock`) lists them.
fn runtime_features(lock: &Lock) -> String {
    let litesvm = lock.version("litesvm").unwrap_or_else(|| "unknown".into());
    format!(
        "every feature enabled (Mollusk); the replay also with mainnet's (litesvm {litesvm}'s list)"
    )
}

/// The checkout's commit, as the committed matrices record it (12 hex
/// digits; empty where git cannot say).
pub fn head_commit(root: &Path) -> String {
    Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(root)
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// The sBPF versions of `elfs`, each once, sorted: `V0`, or `V0, V3`.
pub fn sbpf_arches<'a>(elfs: impl Iterator<Item = &'a [u8]>) -> String {
    let mut arches: Vec<String> = elfs
        .map(|elf| match solana_sbpf::elf::get_sbpf_version(elf) {
            Ok(version) => format!("{version:?}"),
            Err(_) => "unknown".into(),
        })
        .collect();
    arches.sort();
    arches.dedup();
    arches.join(", ")
}

impl Provenance {
    /// What built `programs` (their `elfs`), with the crate versions from
    /// `lock` and each other framework's own lock.
    pub fn collect(
        workspace: &Workspace,
        programs: &[Program],
        elfs: &[Vec<u8>],
        lock: &Lock,
    ) -> Self {
        let mut crates = crate_versions(lock, programs);
        // Each other framework's own lock (solana-program's: this
        // workspace's): the framework and the crates it is built on.
        for framework in Framework::others() {
            let own = Lock::of_framework(workspace, framework);
            if let Some(version) = own.version(framework.crate_name()) {
                crates.insert(framework.crate_key(), version);
            }
            // The crates it is built on, as the registry names them
            // (an entrypoint: pinocchio, or solana-program 2.x).
            for name in &framework.entry().built_on {
                if let Some(version) = own.version(name) {
                    crates.insert(format!("{name} ({})", framework.name()), version);
                }
            }
        }
        let stamps: Vec<String> = programs
            .iter()
            .filter_map(|p| std::fs::read_to_string(p.so_path.with_extension("toolchain")).ok())
            .map(|stamp| stamp.trim().to_string())
            .filter(|stamp| stamp != "upstream")
            .collect();
        Self {
            build_sbf: stamps.first().cloned(),
            ..Self::of_upstream(&workspace.root, elfs, crates)
        }
    }

    /// What the upstream route (this checkout's rustc and sbpf-linker)
    /// built `elfs` with, and the `crates` they were built from: the
    /// toolchain read from the tools themselves, the commit from git.
    pub fn of_upstream(root: &Path, elfs: &[Vec<u8>], crates: BTreeMap<String, String>) -> Self {
        // What a command prints, if it succeeds.
        let output = |program: &str, args: &[&str]| {
            Command::new(program)
                .args(args)
                .current_dir(root)
                .output()
                .ok()
                .filter(|out| out.status.success())
                .and_then(|out| String::from_utf8(out.stdout).ok())
        };
        // The first line a command prints, if it succeeds and prints one.
        let first_line = |program: &str, args: &[&str]| {
            output(program, args).and_then(|out| out.lines().next().map(str::to_owned))
        };
        let run = |program: &str, args: &[&str]| {
            first_line(program, args).unwrap_or_else(|| "unknown".into())
        };
        let linker = root.join(".tools/bin/sbpf-linker");
        let dirty = first_line("git", &["status", "--porcelain", "--untracked-files=no"]).is_some();
        let llvm = output("rustc", &["-vV"])
            .and_then(|out| {
                out.lines()
                    .find_map(|l| l.strip_prefix("LLVM version: ").map(str::to_owned))
            })
            .unwrap_or_else(|| "unknown".into());
        Self {
            build_sbf: None,
            rustc: run("rustc", &["--version"]),
            llvm,
            profile: release_profile(&root.join("Cargo.toml")),
            linker: run(linker.to_str().unwrap_or_default(), &["--version"]),
            sbpf_arch: sbpf_arches(elfs.iter().map(Vec::as_slice)),
            runtime_features: runtime_features(&Lock::read_file(
                &root.join("benches/litesvm/Cargo.lock"),
            )),
            crates,
            commit: run("git", &["rev-parse", "--short=12", "HEAD"])
                + if dirty { " (uncommitted changes)" } else { "" },
            date: chrono::Utc::now().format("%Y-%m-%d").to_string(),
        }
    }

    pub fn markdown(&self) -> String {
        format!(
            "{}- commit: {}, {}\n",
            self.stable_markdown(),
            self.commit,
            self.date
        )
    }

    /// The provenance without the commit and the date: what the docs
    /// quote, the same on every commit that builds the same programs.
    pub fn stable_markdown(&self) -> String {
        let crates: Vec<String> = self
            .crates
            .iter()
            .map(|(n, v)| format!("{n} {v}"))
            .collect();
        let toolchain = match &self.build_sbf {
            Some(version) => format!("- toolchain: cargo build-sbf ({version})\n"),
            None => format!(
                "- rustc: {}\n- LLVM: {}\n- build profile: {}\n- linker: {}\n",
                self.rustc, self.llvm, self.profile, self.linker
            ),
        };
        format!(
            "{toolchain}- sBPF arch: {}\n- runtime features: {}\n- crates: {}\n",
            self.sbpf_arch,
            self.runtime_features,
            crates.join(", "),
        )
    }

    /// One line naming the toolchain, for the baseline.
    pub fn toolchain(&self) -> String {
        match &self.build_sbf {
            Some(version) => format!("cargo build-sbf ({version}), sBPF {}", self.sbpf_arch),
            None => format!("{}, {}, sBPF {}", self.rustc, self.linker, self.sbpf_arch),
        }
    }
}

/// The release profile as `Cargo.toml` sets it (`release: lto = "fat",
/// codegen-units = 1`), with cargo's default `opt-level = 3` where unset.
fn release_profile(manifest: &Path) -> String {
    let table = read_toml(manifest);
    let release = table
        .get("profile")
        .and_then(|p| p.get("release"))
        .and_then(toml::Value::as_table);
    let mut settings: Vec<String> = release
        .into_iter()
        .flatten()
        .filter(|(_, v)| !v.is_table())
        .map(|(k, v)| format!("{k} = {v}"))
        .collect();
    if !release.is_some_and(|r| r.contains_key("opt-level")) {
        settings.insert(0, "opt-level = 3".into());
    }
    format!("release: {}", settings.join(", "))
}

/// Versions from Cargo.lock of the runtime and harness crates and of each
/// program's serializer, as the lock resolved them for that program.
fn crate_versions(lock: &Lock, programs: &[Program]) -> BTreeMap<String, String> {
    ["pinocchio", "solana-compiler-builtins", "mollusk-svm"]
        .iter()
        .filter_map(|name| Some((name.to_string(), lock.version(name)?)))
        .chain(
            programs
                .iter()
                .flat_map(|program| lock.program_crates(program)),
        )
        .collect()
}
