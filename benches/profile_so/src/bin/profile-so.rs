//! `profile-so --so <program.so> --fixtures <folder> [--idl <idl.json>]
//! [--discriminator <bytes>]` (or `--traces <SBF_TRACE_DIR>`), which `make
//! profile SO= FIXTURES=` runs (each flag also read from its variable):
//! a team's own program profiled per instruction from its Mollusk
//! fixtures or its tests' register traces, into
//! `target/benches/profile/<the .so's file stem>/`: this repository's
//! (with its page) when run inside it, else the current folder's, as the
//! installed command runs in a team's own repository.
//!
//! With `--base <the build before the change>`, both builds run the same
//! fixtures and their difference goes into that folder's `diff/`; it
//! exits 1 on a behaviour change (unless `--allow-behaviour-change 1`) and
//! on a call past `--max-increase <CUs>` or `<N>%`.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use benches::Workspace;
use clap::Parser;
use profile_so as so;

/// Your program's compute units, per instruction and by inlined frame,
/// from its Mollusk fixtures or its tests' register traces; two builds
/// compared, with a gate for your CI (docs/profile.md).
#[derive(Parser)]
#[command(name = "profile-so", version)]
struct Args {
    /// Your program's `.so` (a `<name>.so.debug` beside it names inlined
    /// frames).
    #[arg(long, env = "SO")]
    so: Option<String>,
    /// A folder of its Mollusk fixtures (JSON or `.fix`).
    #[arg(long, env = "FIXTURES")]
    fixtures: Option<String>,
    /// The folder its tests wrote register traces into (`SBF_TRACE_DIR`).
    #[arg(long, env = "TRACES")]
    traces: Option<String>,
    /// With `--traces`: the heap frame its transactions request, in bytes.
    #[arg(long, env = "HEAP")]
    heap: Option<String>,
    /// The build before the change: both run the fixtures, compared.
    #[arg(long, env = "BASE")]
    base: Option<String>,
    /// Its IDL: instructions and account types named.
    #[arg(long, env = "IDL")]
    idl: Option<String>,
    /// How many leading bytes of instruction data name an instruction.
    #[arg(long, env = "DISCRIMINATOR")]
    discriminator: Option<String>,
    /// With `--base`: the gate, in CUs (`300`) or percent (`2%`).
    #[arg(long, env = "MAX_INCREASE")]
    max_increase: Option<String>,
    /// With `--base`: `1` where a behaviour change is meant.
    #[arg(long, env = "ALLOW_BEHAVIOUR_CHANGE")]
    allow_behaviour_change: Option<String>,
}

/// Where a run's files go: `BENCH_WORKSPACE`'s, or this repository's (and
/// its page) when run inside it; else the current folder's
/// `target/benches/`, and no page.
fn place() -> (Workspace, bool) {
    let repository = Workspace::from_env();
    if std::env::var_os("BENCH_WORKSPACE").is_some() {
        return (repository, true);
    }
    let here = std::env::current_dir().unwrap_or_else(|_| repository.root.clone());
    let inside = |root: &Path| {
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        here.canonicalize()
            .unwrap_or_else(|_| here.clone())
            .starts_with(root)
    };
    if inside(&repository.root) {
        (repository, true)
    } else {
        (Workspace::at(here), false)
    }
}

fn main() -> ExitCode {
    // Mollusk's logger writes every call's log lines at debug level where
    // RUST_LOG does not say otherwise (the Makefile sets it to `error`).
    if std::env::var_os("RUST_LOG").is_none() {
        // SAFETY: nothing else runs yet: no other thread reads the
        // environment.
        unsafe { std::env::set_var("RUST_LOG", "error") };
    }
    match profile() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("{}: {error}", invoked(false));
            ExitCode::FAILURE
        }
    }
}

/// The command as the user ran it, for its messages: `make profile SO=`
/// (and ` BASE=`) from the Makefile, else the installed `profile-so` (and
/// ` --base`).
fn invoked(base: bool) -> &'static str {
    match (std::env::var_os("MAKELEVEL").is_some(), base) {
        (true, false) => "make profile SO=",
        (true, true) => "make profile SO= BASE=",
        (false, false) => "profile-so",
        (false, true) => "profile-so --base",
    }
}

/// Whether every fixture ran and replayed (and, with `BASE=`, whether the
/// builds behave alike and no call is past the gate).
fn profile() -> Result<bool, String> {
    let args = Args::parse();
    let (workspace, page) = place();
    // An empty value (the Makefile passes every variable) is none.
    let given = |value: &Option<String>| value.clone().unwrap_or_default();
    let (so_path, fixtures, traces) = (given(&args.so), given(&args.fixtures), given(&args.traces));
    if so_path.is_empty() || fixtures.is_empty() == traces.is_empty() {
        return Err(
            "give SO=<your program's .so> and one of FIXTURES=<a folder of its Mollusk fixtures> or TRACES=<the SBF_TRACE_DIR its tests wrote register traces into>"
                .into(),
        );
    }
    let discriminator = match given(&args.discriminator).as_str() {
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
        idl: Some(given(&args.idl))
            .filter(|path| !path.is_empty())
            .map(PathBuf::from),
        idl_runs: workspace.benches_dir().join("idl"),
        traces: Some(traces)
            .filter(|path| !path.is_empty())
            .map(PathBuf::from),
        heap: None,
    };
    let heap = match given(&args.heap).as_str() {
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
    let base = given(&args.base);
    if !base.is_empty() && options.traces.is_some() {
        return Err("BASE= compares two builds on the same calls: one folder of traces holds one build's invocations, with nothing that pairs them with another's; give FIXTURES= for a comparison".into());
    }
    let limit = match given(&args.max_increase).as_str() {
        "" => None,
        value => Some(so::compare::gate::Limit::parse(value)?),
    };
    if !base.is_empty() {
        let allow = !matches!(given(&args.allow_behaviour_change).as_str(), "" | "0");
        return compare((&workspace, page), &options, Path::new(&base), limit, allow);
    }
    if limit.is_some() {
        return Err("MAX_INCREASE= gates the change from a base build: give BASE=<the .so before the change> too".into());
    }
    let run = so::run(&options)?;
    let dir = so::out_dir(&workspace.root, &run.so);
    so::report::write(&dir, &run)?;
    // The page shows every such run beside the benchmark.
    let page = written_page(&workspace, page)?;
    let calls = match run.traces {
        true => "traced invocations",
        false => "fixtures",
    };
    for instruction in so::report::instructions(&run) {
        let (serialization, total) = instruction.serialization();
        println!(
            "{} `{}` ({} {calls}): serialization {}",
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
        "{}: {} {calls} profiled, named by {}; wrote {}{page}",
        invoked(false),
        run.profiled.len(),
        run.naming.kind(),
        workspace.relative(&dir.join("summary.md")).display(),
    );
    if !failed.is_empty() {
        eprintln!(
            "{}: {} fixtures did not replay as recorded or did not run (the others are written):\n  {}",
            invoked(false),
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
    (workspace, page): (&Workspace, bool),
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
    let page = written_page(workspace, page)?;
    for instruction in so::compare::builds::by_instruction(&diff.compared) {
        println!("{}", so::compare::builds::headline(&instruction));
    }
    println!(
        "{}: {} fixtures compared ({}), {} behaviour changes; wrote {}{page}",
        invoked(true),
        diff.compared.len(),
        diff.matching.describe(),
        diff.behaviour.len(),
        workspace.relative(&diff_dir.join("summary.md")).display(),
    );
    let mut passed = true;
    let not_compared = diff.not_compared();
    if !not_compared.is_empty() {
        let lines: Vec<String> = not_compared
            .iter()
            .map(|r| format!("{}: {}", r.fixture, r.reason))
            .collect();
        eprintln!(
            "{}: {} fixtures not compared (the others are):\n  {}",
            invoked(true),
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
            "{}: {} fixtures behave differently in the two builds (a behaviour change, not a cost: kept out of the tables){}:\n  {}",
            invoked(true),
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
                "{}: {} calls cost more than MAX_INCREASE={} allows:\n  {}",
                invoked(true),
                over.len(),
                limit.describe(),
                over.join("\n  ")
            );
            passed = false;
        }
    }
    Ok(passed)
}

/// The page, rewritten with this run where `page` (run inside this
/// repository): ` and its section of <page>`, else nothing.
fn written_page(workspace: &Workspace, page: bool) -> Result<String, String> {
    if !page {
        return Ok(String::new());
    }
    let written = benches::report::page::write(&workspace.benches_dir())?;
    Ok(format!(
        " and its section of {}",
        workspace.relative(&written).display()
    ))
}
