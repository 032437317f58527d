//! `make profile SO=<new .so> BASE=<old .so> FIXTURES=<folder>`: two builds
//! of a program run on the same fixtures, each loaded at the fixtures'
//! program id. The fixtures are the inputs; each build's CUs are what it
//! spends. A fixture whose result or resulting accounts differ between the
//! builds is a behaviour change, kept out of the cost table; every other
//! one's change is split by category and by frame, both summing exactly to
//! it.
//!
//! [`builds`] sets the two runs side by side, [`gate`] holds the change to
//! `MAX_INCREASE`, [`report`] writes the files.

pub mod builds;
pub mod gate;
pub mod report;

use std::path::{Path, PathBuf};

use crate::{Options, Run, elf};

pub use builds::{BehaviourChange, Compared, Comparison, CostChange, FrameChange, Matching};

/// Runs both builds on `options`' fixtures (`options.so` the new build)
/// and compares them.
pub fn run(options: &Options, base: &Path) -> Result<Comparison, String> {
    let base_so = elf::read(base).map_err(|e| e.replacen("SO=", "BASE=", 1))?;
    let same_file = match (options.so.canonicalize(), base.canonicalize()) {
        (Ok(new), Ok(old)) => new == old,
        _ => false,
    };
    if same_file {
        return Err(format!(
            "BASE={} is SO={}: give the build before the change as BASE and the one after as SO",
            base.display(),
            options.so.display()
        ));
    }
    let new = crate::run(options)?;
    let base_options = Options {
        so: PathBuf::from(&base_so.path),
        ..options.clone()
    };
    let old = crate::run(&base_options).map_err(|e| e.replacen("SO=", "BASE=", 1))?;
    let all: Vec<&crate::Profiled> = new.profiled.iter().chain(&old.profiled).collect();
    if !all.is_empty() && all.iter().all(|p| !p.outcome_recorded) {
        let first = all
            .iter()
            .find_map(|p| {
                p.replayed
                    .as_ref()
                    .err()
                    .map(|e| format!("{}: {e}", p.fixture))
            })
            .unwrap_or_default();
        return Err(format!(
            "neither SO={} nor BASE={} replays any of the {} fixtures with the result and accounts it recorded (first: {first}): are these another program's fixtures? give the fixtures this program's tests wrote",
            new.so.path.display(),
            old.so.path.display(),
            new.profiled.len()
        ));
    }
    Ok(builds::compare(new, old))
}

/// The folder a comparison writes into: `target/benches/profile/<the new
/// .so's file stem>/diff/`.
pub fn out_dir(root: &Path, new: &Run) -> PathBuf {
    crate::out_dir(root, &new.so).join("diff")
}
