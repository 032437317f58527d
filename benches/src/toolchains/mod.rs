//! `make toolchains`: the benchmark built and measured with several
//! compilers (LLVM 21, 22 and 23 through the `sbpf-linker` that drives
//! each, and sBPF v3), to show how far a cell moves with the compiler and
//! whether the order of crates survives. Nothing here touches the default
//! toolchain, `target/deploy/` or the baseline.

pub mod build;
pub mod install;
pub mod matrix;
pub mod measure;
pub mod report;

use std::{
    collections::BTreeMap,
    path::{Path, PathBuf},
};

use crate::{Case, HarnessError, Program, Workspace, bench::plan::floor_cases, families::cases};
use matrix::{Matrix, MatrixRow, ToolchainColumn};

/// A crate program's cases as `make bench` runs them; the floor's are the
/// same calls, which must change nothing.
fn crate_cases(program: &Program) -> Result<Vec<Case>, HarnessError> {
    let one = std::slice::from_ref(program);
    if program.dir.ends_with("benches/noop") {
        Ok(floor_cases(one))
    } else {
        cases(one)
    }
}

/// One (nightly, linker, arch) triple the matrix measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Toolchain {
    /// Its column: `llvm21`, `llvm23-v3`...
    pub name: &'static str,
    /// The rustup channel: its rustc and LLVM build the programs.
    pub channel: &'static str,
    /// The `sbpf-linker` built against that LLVM major.
    pub linker_version: &'static str,
    /// `--arch` for the linker; `None` where the linker has no such flag
    /// (0.1.x writes sBPF v0 only).
    pub arch: Option<&'static str>,
    /// Whether its LLVM has the BPF feature `allows-misaligned-mem-access`
    /// (LLVM 22 and later; `rustc --print target-features`). Without it
    /// the flag is dropped: every possibly unaligned load is split.
    pub misaligned: bool,
    /// Whether this is the default toolchain (rust-toolchain.toml, `make
    /// setup`'s linker): its linker is `.tools/bin/sbpf-linker`.
    pub default: bool,
}

/// The toolchains measured, oldest LLVM first; the default (this tree's
/// `.cargo/config.toml`: LLVM 23, sBPF v3) last, sBPF v0 on the same
/// compiler before it.
/// The LLVM each nightly carries is read from `rustc -vV`, not assumed.
pub const TOOLCHAINS: [Toolchain; 4] = [
    Toolchain {
        name: "llvm21",
        channel: "nightly-2025-10-01",
        linker_version: "0.1.5",
        arch: None,
        misaligned: false,
        default: false,
    },
    Toolchain {
        name: "llvm22",
        channel: "nightly-2026-05-19",
        linker_version: "0.1.9",
        arch: None,
        misaligned: true,
        default: false,
    },
    Toolchain {
        name: "llvm23",
        channel: "nightly-2026-10-01",
        linker_version: "0.2.6",
        arch: Some("v0"),
        misaligned: true,
        default: true,
    },
    Toolchain {
        name: "llvm23-v3",
        channel: "nightly-2026-10-01",
        linker_version: "0.2.6",
        arch: Some("v3"),
        misaligned: true,
        default: true,
    },
];

/// The column every other is compared with: this tree's own build and
/// numbers (sBPF v3; `llvm23` is the same compiler with v0).
pub const REFERENCE: &str = "llvm23-v3";

impl Toolchain {
    /// Where this toolchain's linker lives.
    pub fn linker(&self, root: &Path) -> PathBuf {
        self.linker_root(root).join("bin/sbpf-linker")
    }

    /// The `--root` its linker is installed under: `make setup`'s for the
    /// default, else one folder per linker and nightly.
    pub fn linker_root(&self, root: &Path) -> PathBuf {
        if self.default {
            root.join(".tools")
        } else {
            root.join(".tools/toolchains").join(format!(
                "sbpf-linker-{}-{}",
                self.linker_version, self.channel
            ))
        }
    }

    /// Its build output: cargo's target folder, the programs, the log.
    pub fn out_dir(&self, root: &Path) -> PathBuf {
        root.join("target/toolchains").join(self.name)
    }
}

/// Installs, builds and measures each toolchain of `only` (all when
/// empty); `progress` hears each step. Columns not run are kept from
/// `previous`. Fails only where a toolchain cannot be installed.
pub fn run(
    workspace: &Workspace,
    only: &[String],
    previous: Option<Matrix>,
    progress: &dyn Fn(&str),
) -> Result<Matrix, String> {
    let root = &workspace.root;
    if let Some(unknown) = only
        .iter()
        .find(|n| !TOOLCHAINS.iter().any(|t| t.name == *n))
    {
        let names: Vec<&str> = TOOLCHAINS.iter().map(|t| t.name).collect();
        return Err(format!(
            "no toolchain `{unknown}`; the matrix has {}",
            names.join(", ")
        ));
    }
    let selected = |t: &Toolchain| only.is_empty() || only.iter().any(|n| n == t.name);
    let (mut toolchains, mut rows) = match previous {
        Some(previous) => (previous.toolchains, previous.rows),
        None => (Vec::new(), BTreeMap::new()),
    };
    // Drop what is measured again, and any column no longer in the matrix.
    toolchains
        .retain(|c: &ToolchainColumn| TOOLCHAINS.iter().any(|t| t.name == c.name && !selected(t)));
    for row in rows.values_mut() {
        row.cells
            .retain(|name, _| toolchains.iter().any(|c| &c.name == name));
    }
    for toolchain in TOOLCHAINS.iter().filter(|t| selected(t)) {
        progress(&format!(
            "{}: installing {}",
            toolchain.name, toolchain.channel
        ));
        let versions = install::install(toolchain, root, progress)?;
        progress(&format!(
            "{}: rustc {}, LLVM {}, {}; building",
            toolchain.name, versions.rustc, versions.llvm, versions.linker
        ));
        let deployed =
            Workspace::at(root.clone()).with_deploy_dir(toolchain.out_dir(root).join("deploy"));
        let mut programs = deployed.programs().map_err(|e| e.to_string())?;
        programs.extend(deployed.floor());
        let built = build::build_all(&deployed, toolchain, &programs, progress)?;
        progress(&format!("{}: measuring", toolchain.name));
        for (name, (row, cell)) in measure::measure(&deployed, &programs, &built, &crate_cases) {
            rows.entry(name)
                .or_insert(row)
                .cells
                .insert(toolchain.name.into(), cell);
        }
        let elfs: Vec<Vec<u8>> = programs
            .iter()
            .filter_map(|p| std::fs::read(&p.so_path).ok())
            .collect();
        toolchains.push(ToolchainColumn {
            name: toolchain.name.into(),
            channel: toolchain.channel.into(),
            versions,
            rustflags: build::rustflags(root, toolchain)?.join(" "),
            sbpf_arch: crate::provenance::sbpf_arches(elfs.iter().map(Vec::as_slice)),
            programs: built,
        });
    }
    // Columns in the matrix's order; rows without any cell dropped.
    toolchains.sort_by_key(|c| TOOLCHAINS.iter().position(|t| t.name == c.name));
    rows.retain(|_, row: &mut MatrixRow| !row.cells.is_empty());
    Ok(Matrix {
        command: "make toolchains".into(),
        commit: crate::provenance::head_commit(root),
        date: chrono::Utc::now().format("%Y-%m-%d").to_string(),
        toolchains,
        rows,
    })
}
