//! `make anchor-versions`: the Anchor 1.x programs (`programs/anchor1/`)
//! built and measured with each anchor-lang release from 0.29 on, each in
//! a workspace and lockfile of its own (their solana crates differ), with
//! the same harness and the same contract checks as `make bench`; and the
//! Anchor 2 programs that do the same work as a last column. Nothing here
//! touches `target/deploy/` or the baseline.

pub mod copies;
pub mod matrix;
pub mod prepare;
pub mod report;

use std::{
    collections::{BTreeMap, BTreeSet},
    fs,
    path::Path,
    process::Command,
};

use crate::{
    Case, HarnessError, Program, Workspace, build_error::error_of, families::framework_cases,
    lock::Lock, toolchains::measure,
};
use matrix::{Cell, Matrix, MatrixRow, ReleaseColumn};

pub use crate::frameworks::anchor1::releases::{ANCHOR2, PINNED, RELEASES, Release};

/// Where cargo builds `release`'s programs. Every release but the pinned
/// one: `make all`'s folder, where std, core and alloc, and every crate a
/// release shares with `programs/anchor1/` at the same version and
/// features (its solana crates, serde, borsh), are built with the same
/// sources, flags and linker, so each release compiles only what it
/// changes (its own crates differ from `make all`'s by their anchor-lang).
/// No other build of these package names runs at once (`make all` builds
/// them, `make anchor-copies` and `make anchor-versions` after it), and
/// each program's `.so` is taken from cargo's output as its build ends.
/// The pinned release (`PINNED`): a folder of its own, for its copy's
/// crates are `make all`'s own (the same packages, relative paths and
/// lockfile), and built in `make all`'s folder they would be rebuilt in
/// place from the copy, its paths in their debug info.
pub fn target_dir(root: &Path, release: &Release) -> std::path::PathBuf {
    if release.version == PINNED {
        release.dir(root).join("cargo")
    } else {
        root.join("target")
    }
}

/// The Anchor 2 program and operation that do what an Anchor 1.x
/// program's operation does, where one does: the borsh account is
/// `BorshAccount<T>`, the zero-copy one `Account<T>`, and Anchor 1.x's
/// `emit!` (borsh) Anchor 2's `emit_borsh`. `LazyAccount<T>` has none.
pub fn anchor2_row(anchor1_row: &str) -> Option<String> {
    let rest = anchor1_row.strip_prefix("anchor1/")?;
    let (program, operation) = rest.split_once("::")?;
    let program = match program {
        "token/account" => "token/borsh_account",
        "token/account_loader" => "token/account",
        "metadata/account" => "metadata/borsh_account",
        "token/args_and_events" | "metadata/args_and_events" | "noop" => program,
        _ => return None,
    };
    let operation = match operation.split_once('/') {
        Some(("emit_event", instance)) => format!("emit_borsh/{instance}"),
        None if operation == "emit_event" => "emit_borsh".into(),
        _ => operation.to_string(),
    };
    Some(format!("anchor2/{program}::{operation}"))
}

fn anchor1_cases(program: &Program) -> Result<Vec<Case>, HarnessError> {
    framework_cases(std::slice::from_ref(program))
}

/// Builds each Anchor 1.x program with `release`, one cargo call each as
/// `make all` builds them: per label, the `.so`'s bytes or the first error.
fn build(
    workspace: &Workspace,
    release: &Release,
    programs: &[Program],
    progress: &dyn Fn(&str),
) -> Result<BTreeMap<String, Cell>, String> {
    let root = &workspace.root;
    let dir = release.dir(root);
    let copy = prepare::workspace(root, release)?;
    let log = dir.join("build.log");
    fs::write(&log, "").map_err(|e| format!("{}: {e}", log.display()))?;
    let mut built = BTreeMap::new();
    for program in programs {
        if let Some(why) = release.lacks(&program.name) {
            built.insert(program.label(), Cell::Failed(why));
            continue;
        }
        let folder = program
            .so_path
            .parent()
            .and_then(|p| p.strip_prefix(workspace.deploy_dir()).ok())
            .ok_or("a program outside the deploy folder")?;
        let source = program.dir.strip_prefix(root).unwrap_or(&program.dir);
        let result = Command::new(root.join("benches/build-programs.sh"))
            .arg(folder)
            .arg("")
            .arg(source)
            .current_dir(root)
            .env("SBF_TOOLCHAIN", "upstream")
            .env("FRAMEWORK_WORKSPACE", &copy)
            .env("CARGO_TARGET_DIR", target_dir(root, release))
            .env("DEPLOY", workspace.deploy_dir())
            .env("BUILD_LOG", &log)
            .output()
            .map_err(|e| format!("benches/build-programs.sh: {e}"))?;
        let size = fs::metadata(&program.so_path);
        let cell = match (result.status.success(), size) {
            (true, Ok(meta)) => Cell::Cus(meta.len()),
            // Paths relative to the workspace: the committed file is the
            // same on every machine.
            _ => Cell::Failed(
                error_of(&String::from_utf8_lossy(&result.stderr))
                    .replace(&format!("{}/", root.display()), ""),
            ),
        };
        progress(&format!(
            "anchor-lang {}: {}: {}",
            release.version,
            program.name,
            match &cell {
                Cell::Cus(bytes) => format!("{bytes} bytes"),
                Cell::Failed(e) => format!("not built: {}", e.lines().next().unwrap_or("")),
            }
        ));
        built.insert(program.label(), cell);
    }
    Ok(built)
}

/// The Anchor 1.x programs, as discovery finds them under `deployed`'s
/// deploy folder.
fn anchor1_programs(deployed: &Workspace) -> Vec<Program> {
    deployed
        .framework_programs()
        .into_iter()
        .filter(|p| p.framework == crate::frameworks::anchor1::ORACLE.framework())
        .collect()
}

/// One release's column, and its cells into `rows`.
fn measure_release(
    root: &Path,
    release: &Release,
    rows: &mut BTreeMap<String, MatrixRow>,
    progress: &dyn Fn(&str),
) -> Result<ReleaseColumn, String> {
    let deployed =
        Workspace::at(root.to_path_buf()).with_deploy_dir(release.dir(root).join("deploy"));
    let programs = anchor1_programs(&deployed);
    progress(&format!("anchor-lang {}: building", release.version));
    let built = build(&deployed, release, &programs, progress)?;
    progress(&format!("anchor-lang {}: measuring", release.version));
    for (name, (row, cell)) in measure::measure(&deployed, &programs, &built, &anchor1_cases) {
        rows.entry(name)
            .or_insert(row)
            .cells
            .insert(release.version.into(), cell);
    }
    let lock = Lock::read_file(&prepare::lock_path(root, release));
    Ok(ReleaseColumn {
        release: release.version.into(),
        anchor_lang: lock.version("anchor-lang").unwrap_or_default(),
        borsh: lock.versions("borsh").join(", "),
        programs: built,
    })
}

/// Anchor 2's column, from `make all`'s build: each Anchor 1.x row's
/// counterpart (`anchor2_row`) measured, where there is one.
fn measure_anchor2(
    root: &Path,
    rows: &mut BTreeMap<String, MatrixRow>,
) -> Result<ReleaseColumn, String> {
    let workspace = Workspace::at(root.to_path_buf());
    let programs: Vec<Program> = workspace
        .framework_programs()
        .into_iter()
        .filter(|p| p.framework == crate::frameworks::anchor2::ORACLE.framework())
        .collect();
    let built: BTreeMap<String, Cell> = programs
        .iter()
        .map(|p| {
            let cell = match fs::metadata(&p.so_path) {
                Ok(meta) => Cell::Cus(meta.len()),
                Err(_) => Cell::Failed(format!("{} is not built: run make all", p.label())),
            };
            (p.label(), cell)
        })
        .collect();
    let measured = measure::measure(&workspace, &programs, &built, &|p: &Program| {
        framework_cases(std::slice::from_ref(p))
    });
    for (name, row) in rows.iter_mut() {
        if let Some((_, cell)) = anchor2_row(name).and_then(|other| measured.get(&other)) {
            row.cells.insert(ANCHOR2.into(), cell.clone());
        }
    }
    // Each Anchor 1.x program's counterpart's size, under the Anchor 1.x
    // program's label (the rows the column stands beside).
    let anchor1_labels: BTreeSet<&str> = rows
        .keys()
        .filter_map(|r| r.split_once("::").map(|(label, _)| label))
        .collect();
    let programs = anchor1_labels
        .into_iter()
        .filter_map(|label| {
            let counterpart = anchor2_row(&format!("{label}::"))?;
            let counterpart = counterpart.trim_end_matches("::");
            Some((label.to_string(), built.get(counterpart)?.clone()))
        })
        .collect();
    let lock = Lock::of_framework(&workspace, crate::frameworks::anchor2::ORACLE.framework());
    Ok(ReleaseColumn {
        release: ANCHOR2.into(),
        anchor_lang: lock.version("anchor-lang").unwrap_or_default(),
        borsh: lock.versions("borsh").join(", "),
        programs,
    })
}

/// Every release of `only` (all where empty) built and measured; the
/// others' columns kept from `previous`.
pub fn run(
    root: &Path,
    only: &[String],
    previous: Option<Matrix>,
    progress: &dyn Fn(&str),
) -> Result<Matrix, String> {
    for name in only {
        if !RELEASES.iter().any(|r| r.version == name) {
            return Err(format!(
                "no release {name} in the matrix; ANCHOR_VERSIONS takes any of {}",
                RELEASES.map(|r| r.version).join(", ")
            ));
        }
    }
    let selected = |r: &Release| only.is_empty() || only.iter().any(|o| o == r.version);
    let mut rows: BTreeMap<String, MatrixRow> = BTreeMap::new();
    let mut kept: BTreeMap<String, ReleaseColumn> = BTreeMap::new();
    if let Some(previous) = previous {
        for column in previous.releases {
            if RELEASES
                .iter()
                .any(|r| r.version == column.release && !selected(r))
            {
                kept.insert(column.release.clone(), column);
            }
        }
        for (name, mut row) in previous.rows {
            row.cells.retain(|release, _| kept.contains_key(release));
            rows.insert(name, row);
        }
    }
    let mut releases = Vec::new();
    for release in &RELEASES {
        match kept.remove(release.version) {
            Some(column) => releases.push(column),
            None => releases.push(measure_release(root, release, &mut rows, progress)?),
        }
    }
    progress(&format!(
        "anchor-lang {ANCHOR2} (programs/anchor2): measuring"
    ));
    releases.push(measure_anchor2(root, &mut rows)?);
    Ok(Matrix {
        command: "make anchor-versions".into(),
        commit: crate::provenance::head_commit(root),
        date: chrono::Utc::now().format("%Y-%m-%d").to_string(),
        releases,
        rows,
    })
}
