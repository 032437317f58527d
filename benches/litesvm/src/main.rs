//! Replays cases Mollusk measured as transactions in LiteSVM, with the
//! same program bytes and accounts, and compares the program's compute
//! units and what the call left with Mollusk's.
//!
//! Two passes: with every runtime feature enabled, as Mollusk runs (every
//! case must be equal, or this exits non-zero), and with the features
//! active on mainnet, LiteSVM's default (reported, and marked on the rows
//! that fault there).
//!
//! - By default, every case `make bench` measured
//!   (target/benches/cases.json): the mainnet pass must name the rows
//!   benches/mainnet.json names (`baseline` rewrites it); writes
//!   target/benches/litesvm.md and litesvm.json, and the pass's line into
//!   summary.md.
//! - With `IDL_RUN=<folder>`, a `make idl` run (or every run in a folder of
//!   them): its report gains the replay (`idl_run`).

use std::{path::PathBuf, process::ExitCode};

mod families;
mod idl_run;
// The same file the fixtures crate compiles (it names the runs for both).
#[path = "../../fixtures/src/idl_runs.rs"]
mod idl_runs;
#[cfg(test)]
mod recorder_tests;
mod replay;
// The same file the benches crate compiles: the section names a tracing
// loader needs, on the ELFs the traced replay loads.
#[path = "../../src/section_names.rs"]
mod section_names;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("litesvm check: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<bool, String> {
    let rewrite = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("baseline") => true,
        Some(other) => {
            return Err(format!(
                "unknown mode `{other}`; use no argument or `baseline`"
            ));
        }
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let version = env!("LITESVM_VERSION");
    let idl_run = std::env::var("IDL_RUN").unwrap_or_default();
    if idl_run.is_empty() {
        return families::run(&root, version, rewrite);
    }
    if rewrite {
        return Err(
            "`baseline` rewrites benches/mainnet.json, the families' file: leave IDL_RUN unset"
                .into(),
        );
    }
    let runs = idl_runs::runs(&root, &idl_run)?;
    let mut equal = 0;
    for dir in &runs {
        equal += usize::from(idl_run::replay_run(&root, dir, version)?);
    }
    if runs.len() > 1 {
        println!(
            "{equal} of {} make idl runs replayed equal with every feature",
            runs.len()
        );
    }
    Ok(equal == runs.len())
}
