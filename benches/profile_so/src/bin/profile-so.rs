//! `make profile SO=<program.so> FIXTURES=<folder> [IDL=<idl.json>]
//! [DISCRIMINATOR=<bytes>]`:
//! a team's own program profiled per instruction from its Mollusk
//! fixtures, into `target/benches/profile/<the .so's file stem>/`.
//!
//! With `BASE=<the build before the change>`, both builds run the same
//! fixtures and their difference goes into that folder's `diff/`; it
//! exits 1 on a behaviour change (unless `ALLOW_BEHAVIOUR_CHANGE=1`) and
//! on a call past `MAX_INCREASE=<CUs>` or `<N>%`.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use benches::Workspace;
use profile_so as so;

fn main() -> ExitCode {
    match profile() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("make profile SO=: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Whether every fixture ran and replayed (and, with `BASE=`, whether the
/// builds behave alike and no call is past the gate).
fn profile() -> Result<bool, String> {
    let workspace = Workspace::from_env();
    let var = |name: &str| std::env::var(name).unwrap_or_default();
    let (so_path, fixtures, traces) = (var("SO"), var("FIXTURES"), var("TRACES"));
    if so_path.is_empty() || fixtures.is_empty() == traces.is_empty() {
        return Err(
            "give SO=<your program's .so> and one of FIXTURES=<a folder of its Mollusk fixtures> or TRACES=<the SBF_TRACE_DIR its tests wrote register traces into>"
                .into(),
        );
    }
    let discriminator = match var("DISCRIMINATOR").as_str() {
        "" => 1,
        bytes => bytes
            .parse::<usize>()
            .ok()
            .filter(|&n| (1..=32).contains(&n))
            .ok_or_else(|| format!("DISCRIMINATOR={bytes}: give how many leading bytes of the instruction data name the instruction (1 for a native program, 8 for Anchor's)"))?,
    };
    let options = so::Options {
        so: PathBuf::from(so_path),
        fixtures: PathBuf::from(fixtures),
        discriminator,
        idl: Some(var("IDL"))
            .filter(|path| !path.is_empty())
            .map(PathBuf::from),
        idl_runs: workspace.benches_dir().join("idl"),
        traces: Some(traces)
            .filter(|path| !path.is_empty())
            .map(PathBuf::from),
        heap: None,
    };
    let heap = match var("HEAP").as_str() {
        "" => None,
        bytes => Some(
            bytes
                .parse::<u32>()
                .ok()
                .filter(|n| n % 1024 == 0 && (32 * 1024..=256 * 1024).contains(n))
                .ok_or_else(|| format!("HEAP={bytes}: give the heap frame your transactions request, in bytes (a multiple of 1024 from 32768 to 262144)"))?,
        ),
    };
    if heap.is_some() && options.traces.is_none() {
        return Err(
            "HEAP= is the heap frame of traced transactions (TRACES=); a fixture records its own"
                .into(),
        );
    }
    let options = so::Options { heap, ..options };
    let base = var("BASE");
    if !base.is_empty() && options.traces.is_some() {
        return Err("BASE= compares two builds on the same calls: one folder of traces holds one build's invocations, with nothing that pairs them with another's; give FIXTURES= for a comparison".into());
    }
    let limit = match var("MAX_INCREASE").as_str() {
        "" => None,
        value => Some(so::compare::gate::Limit::parse(value)?),
    };
    if !base.is_empty() {
        let allow = !matches!(var("ALLOW_BEHAVIOUR_CHANGE").as_str(), "" | "0");
        return compare(&workspace, &options, Path::new(&base), limit, allow);
    }
    if limit.is_some() {
        return Err("MAX_INCREASE= gates the change from a base build: give BASE=<the .so before the change> too".into());
    }
    let run = so::run(&options)?;
    let dir = so::out_dir(&workspace.root, &run.so);
    so::report::write(&dir, &run)?;
    // The page shows every such run beside the benchmark.
    let page = benches::report::page::write(&workspace.benches_dir())?;
    for instruction in so::report::instructions(&run) {
        let (serialization, total) = instruction.serialization();
        println!(
            "{} `{}` ({} fixtures): serialization {}",
            run.so.name,
            instruction.name,
            instruction.fixtures.len(),
            so::report::share(&run.naming, serialization, total)
        );
    }
    if let so::Naming::Addresses(why) = &run.naming {
        println!(
            "{}: named by address ({why}): {}",
            run.so.name,
            so::report::LOWER_BOUNDS
        );
    }
    let failed: Vec<String> = run
        .profiled
        .iter()
        .filter_map(|p| {
            p.replayed
                .as_ref()
                .err()
                .map(|e| format!("{}: {e}", p.fixture))
        })
        .chain(
            run.refused
                .iter()
                .map(|r| format!("{}: {}", r.fixture, r.reason)),
        )
        .collect();
    println!(
        "make profile SO=: {} fixtures profiled, named by {}; wrote {} and its section of {}",
        run.profiled.len(),
        run.naming.kind(),
        workspace.relative(&dir.join("summary.md")).display(),
        workspace.relative(&page).display()
    );
    if !failed.is_empty() {
        eprintln!(
            "make profile SO=: {} fixtures did not replay as recorded or did not run (the others are written):\n  {}",
            failed.len(),
            failed.join("\n  ")
        );
    }
    Ok(failed.is_empty())
}

/// `BASE=`: both builds on the fixtures, the new one's profile written as
/// without `BASE=` and the comparison into its `diff/`; whether they
/// behave alike (or may differ) and no call is past `limit`.
fn compare(
    workspace: &Workspace,
    options: &so::Options,
    base: &Path,
    limit: Option<so::compare::gate::Limit>,
    allow_behaviour_change: bool,
) -> Result<bool, String> {
    let diff = so::compare::run(options, base)?;
    let dir = so::out_dir(&workspace.root, &diff.new.so);
    so::report::write(&dir, &diff.new)?;
    let diff_dir = so::compare::out_dir(&workspace.root, &diff.new);
    so::compare::report::write(&diff_dir, &diff, limit)?;
    let page = benches::report::page::write(&workspace.benches_dir())?;
    for instruction in so::compare::builds::by_instruction(&diff.compared) {
        println!("{}", so::compare::builds::headline(&instruction));
    }
    println!(
        "make profile SO= BASE=: {} fixtures compared ({}), {} behaviour changes; wrote {} and its section of {}",
        diff.compared.len(),
        diff.matching.describe(),
        diff.behaviour.len(),
        workspace.relative(&diff_dir.join("summary.md")).display(),
        workspace.relative(&page).display()
    );
    let mut passed = true;
    let not_compared = diff.not_compared();
    if !not_compared.is_empty() {
        let lines: Vec<String> = not_compared
            .iter()
            .map(|r| format!("{}: {}", r.fixture, r.reason))
            .collect();
        eprintln!(
            "make profile SO= BASE=: {} fixtures not compared (the others are):\n  {}",
            lines.len(),
            lines.join("\n  ")
        );
    }
    if !diff.behaviour.is_empty() {
        let lines: Vec<String> = diff
            .behaviour
            .iter()
            .map(|b| format!("{} (`{}`): {}", b.fixture, b.instruction, b.differs))
            .collect();
        eprintln!(
            "make profile SO= BASE=: {} fixtures behave differently in the two builds (a behaviour change, not a cost: kept out of the tables){}:\n  {}",
            lines.len(),
            if allow_behaviour_change {
                ", allowed by ALLOW_BEHAVIOUR_CHANGE=1"
            } else {
                "; set ALLOW_BEHAVIOUR_CHANGE=1 where the change is meant"
            },
            lines.join("\n  ")
        );
        passed &= allow_behaviour_change;
    }
    if let Some(limit) = limit {
        let over = so::compare::gate::over(limit, &diff.compared);
        if !over.is_empty() {
            eprintln!(
                "make profile SO= BASE=: {} calls cost more than MAX_INCREASE={} allows:\n  {}",
                over.len(),
                limit.describe(),
                over.join("\n  ")
            );
            passed = false;
        }
    }
    Ok(passed)
}
