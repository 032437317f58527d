//! `make bench` (no argument), `make bench-check` (`check`),
//! `make bench-baseline` (`baseline`), `make docs` (`docs`), `make
//! profile` (`profile`, `profile docs`) and `make bench-diff` (`diff <the
//! other revision's worktree> <the revision>`). `make bench` ends with the answer
//! and where the page and the files are; on failure, what is wrong and
//! what to do, with a non-zero exit.

use std::process::ExitCode;

use benches::{
    HarnessError, Workspace, bench,
    report::{answer, docs, page},
};

fn main() -> ExitCode {
    let mode = std::env::args().nth(1);
    match run(mode.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}

/// Prefixes an error with the make target the user ran.
fn fail(target: &'static str) -> impl Fn(HarnessError) -> String {
    move |error| format!("make {target}: {error}")
}

fn run(mode: Option<&str>) -> Result<(), String> {
    let workspace = Workspace::from_env();
    match mode {
        None => {
            let run = bench::run(&workspace).map_err(fail("bench"))?;
            // The last screen is the answer; the tables stay in summary.md.
            let answer = answer::markdown(&run);
            let dir = workspace.benches_dir();
            let shown: Vec<&str> = answer.lines().filter(|l| !l.starts_with("<!--")).collect();
            println!("{}", shown.join("\n"));
            println!(
                "make bench: {} records measured and checked. The page: {} (open it in a browser: \
                 filter, sort, compare, charts). Every table: {}. Also there: results.json, \
                 cases.json, answer.md, compute_units.md and the charts (*.svg).",
                run.measurements.len() + run.frameworks.len(),
                dir.join(page::FILE).display(),
                dir.join("summary.md").display(),
            );
        }
        Some("check") => {
            let run = bench::run(&workspace).map_err(fail("bench-check"))?;
            let differences = bench::check(&workspace, &run).map_err(fail("bench-check"))?;
            if !differences.is_empty() {
                return Err(format!(
                    "make bench-check: {} compute-unit figures differ from benches/baseline.json:\n  {}\nWhere they moved and why, frame by frame: `make bench-diff REV=<the commit benches/baseline.json was written at, e.g. HEAD>`. If the change is intended, run `make bench-baseline` and commit benches/baseline.json with it.",
                    differences.len(),
                    differences.join("\n  ")
                ));
            }
            println!("make bench-check: every compute-unit figure matches benches/baseline.json");
        }
        Some("diff") => {
            let mut args = std::env::args().skip(2);
            let (Some(tree), Some(rev)) = (args.next(), args.next()) else {
                return Err("make bench-diff: give REV=<git revision>".into());
            };
            let there = Workspace::at(&tree);
            let profiled = |workspace: &Workspace, which: &str| {
                let mut profiler = benches::profile::Profiler::default();
                benches::bench::profile_rows(workspace, &mut profiler)
                    .map(|()| profiler)
                    .map_err(|e| format!("make bench-diff: measuring {which}'s programs: {e}"))
            };
            let new = profiled(&workspace, "this tree")?;
            let base = profiled(&there, &format!("REV={rev}"))?;
            let comparison = benches::compare::revisions::compare(&new, &base, &rev);
            let dir = workspace.benches_dir().join("bench-diff");
            benches::compare::revisions::write(&dir, &comparison)
                .map_err(|e| format!("make bench-diff: {e}"))?;
            for r in &comparison.changed {
                println!("{}", r.cost.headline(&r.row));
            }
            println!(
                "make bench-diff: {} rows differ from REV={rev}, {} are the same; wrote {}",
                comparison.changed.len(),
                comparison.unchanged,
                workspace.relative(&dir.join("summary.md")).display()
            );
        }
        Some("baseline") => {
            let run = bench::run(&workspace).map_err(fail("bench-baseline"))?;
            bench::write_baseline(&workspace, &run).map_err(fail("bench-baseline"))?;
            println!(
                "make bench-baseline: wrote benches/baseline.json, benches/compute_units.svg, benches/message_cus.svg, benches/message_heap.svg and benches/metadata_cus.svg; commit them with the change"
            );
        }
        Some("docs") => {
            let run = bench::run(&workspace).map_err(fail("docs"))?;
            let changed = benches::committed::doc_blocks(&workspace.root)
                .and_then(|committed| docs::update(&workspace.root, &run, committed, true))
                .map_err(|e| format!("make docs: {e}"))?;
            if changed.is_empty() {
                println!("make docs: every marked figure and block is this run's already");
            } else {
                println!(
                    "make docs: rewrote {} marked figures and blocks from this run:\n  {}",
                    changed.len(),
                    changed.join("\n  ")
                );
            }
        }
        Some("profile") => {
            let mut profiler = benches::profile::Profiler::default();
            bench::run_with(&workspace, Some(&mut profiler)).map_err(fail("profile"))?;
            let written = benches::profile::write(&workspace, &profiler)
                .map_err(|e| format!("make profile: {e}"))?;
            println!("{written}");
            let rewrite = std::env::args().nth(2).as_deref() == Some("docs");
            // The profile is written; a figure the docs cannot take from
            // it is the docs' to mend (the profile test fails on it).
            let differs = match benches::profile::figures::update(&workspace, rewrite) {
                Ok(differs) => differs,
                Err(e) => {
                    eprintln!("make profile: the docs' profile figures cannot be checked: {e}");
                    return Ok(());
                }
            };
            match (differs.is_empty(), rewrite) {
                (true, _) => {
                    println!("make profile: every profile figure in the docs is this run's")
                }
                (false, true) => println!(
                    "make profile: rewrote {} profile figures in the docs:\n  {}",
                    differs.len(),
                    differs.join("\n  ")
                ),
                (false, false) => println!(
                    "make profile: {} profile figures in the docs differ from this run (make profile DOCS=1 rewrites them):\n  {}",
                    differs.len(),
                    differs.join("\n  ")
                ),
            }
        }
        Some(other) => {
            return Err(format!(
                "bench: unknown mode `{other}`; use no argument (make bench), `check` (make bench-check), `baseline` (make bench-baseline), `docs` (make docs), `profile [docs]` (make profile) or `diff <worktree> <revision>` (make bench-diff)"
            ));
        }
    }
    Ok(())
}
