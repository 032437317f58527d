//! One `make bench` run: the plan's groups (`plan`), each case checked
//! against its contract and measured, then traced (and profiled) in the
//! same pass (`pass`), the floor with them; mollusk-svm-bencher's tables
//! (`bencher`); then the summary, JSON and charts, all from the same run.

pub mod bencher;
pub mod pass;
pub mod plan;

use std::{collections::BTreeMap, fs};

use bencher::Bencher;

use crate::{
    Case, Family, Framework, HarnessError, Program, Workspace,
    baseline::Baseline,
    exported::{CasesFile, ExportedCase},
    lock::Lock,
    mainnet::Mainnet,
    message, metadata,
    profile::Profiler,
    provenance::Provenance,
    report::{Measurement, Run, charts},
};

/// The whole run, with every file of target/benches/ written.
pub fn run(workspace: &Workspace) -> Result<Run, HarnessError> {
    run_with(workspace, None)
}

/// Every row of `workspace` measured against its contract and profiled
/// into `profiler`, nothing written: `make bench-diff` measures another
/// revision's programs (its worktree as `workspace`) with this one's cases.
pub fn profile_rows(workspace: &Workspace, profiler: &mut Profiler) -> Result<(), HarnessError> {
    measure(workspace, Some(profiler)).map(|_| ())
}

/// One pass over the plan: every group's rows, what each crate's message
/// and metadata program validates, the floor's rows, the programs and
/// their bytes, each group's bencher, and the cases exported.
#[derive(Default)]
struct Measured {
    /// The crates' programs (the floor left out) and their bytes.
    programs: Vec<(Program, Vec<u8>)>,
    /// The other frameworks' programs (their floors too) and their bytes.
    others: Vec<(Program, Vec<u8>)>,
    /// The crates' rows.
    measurements: Vec<Measurement>,
    floor: Vec<Measurement>,
    /// The other frameworks' rows.
    frameworks: Vec<Measurement>,
    /// Per message program, what it validates of the parts an
    /// operation does not read (`message::validates_unread`).
    validation: BTreeMap<String, Vec<(&'static str, bool)>>,
    /// The same, per metadata program.
    metadata_validation: BTreeMap<String, Vec<(&'static str, bool)>>,
    benchers: Vec<Bencher>,
    exported: Vec<ExportedCase>,
}

/// The plan's groups, in order, each loaded as it is reached and run in
/// one pass (profiled into `profiler`), with its group's steps: its
/// floor, its validation probes, its bencher.
fn measure(
    workspace: &Workspace,
    mut profiler: Option<&mut Profiler>,
) -> Result<Measured, HarnessError> {
    let mut out = Measured::default();
    for group in plan::of(workspace)? {
        let loaded = group.load(workspace)?;
        let mut pass = |cases: &[Case], exported: &mut Vec<ExportedCase>| {
            pass::measure(workspace, &loaded, cases, profiler.as_deref_mut(), exported)
        };
        let rows = pass(&group.cases, &mut out.exported)?;
        if !group.floor_cases.is_empty() {
            out.floor = pass(&group.floor_cases, &mut out.exported)?;
        }
        if group.probes_validation() {
            for program in &group.programs {
                let (table, probes) = match group.family {
                    Family::Message => (
                        &mut out.validation,
                        message::validates_unread(program, &loaded.mollusk)?,
                    ),
                    _ => (
                        &mut out.metadata_validation,
                        metadata::validates_unread(program, &loaded.mollusk)?,
                    ),
                };
                table.insert(program.name.clone(), probes);
            }
        }
        let own = loaded.programs.into_iter().zip(loaded.elfs);
        if group.framework == Framework::PINOCCHIO {
            out.measurements.extend(rows);
            out.programs.extend(own.take(group.programs.len()));
        } else {
            out.frameworks.extend(rows);
            out.others.extend(own);
        }
        let dir = group.bencher_dir(workspace);
        out.benchers.push((dir, loaded.mollusk, group.cases));
    }
    Ok(out)
}

/// [`run`], with every row profiled into `profiler` in its traced pass.
/// Every result is checked before any number is written.
pub fn run_with(
    workspace: &Workspace,
    profiler: Option<&mut Profiler>,
) -> Result<Run, HarnessError> {
    let measured = measure(workspace, profiler)?;
    bencher::write_tables(measured.benchers)?;
    let (programs, elfs): (Vec<Program>, Vec<Vec<u8>>) = measured.programs.into_iter().unzip();
    let (others, other_elfs): (Vec<Program>, Vec<Vec<u8>>) = measured.others.into_iter().unzip();

    let lock = Lock::read(workspace);
    let framework_locks: BTreeMap<Framework, Lock> = Framework::others()
        .map(|fw| (fw, Lock::of_framework(workspace, fw)))
        .collect();
    let run = Run {
        provenance: Provenance::collect(
            workspace,
            &programs,
            &[elfs.as_slice(), &other_elfs].concat(),
            &lock,
        ),
        measurements: measured.measurements,
        floor: measured.floor,
        frameworks: measured.frameworks,
        validation: measured.validation,
        metadata_validation: measured.metadata_validation,
        sizes: programs
            .iter()
            .zip(&elfs)
            .chain(others.iter().zip(&other_elfs))
            .map(|(p, elf)| (p.label(), elf.len() as u64))
            .collect(),
        // Another framework's program's crate is the framework (its
        // record's codec is the framework's choice, not the program's);
        // on solana-program's entrypoint it is still the crate's program.
        crates: programs
            .iter()
            .chain(
                others
                    .iter()
                    .filter(|p| p.framework == Framework::SOLANA_PROGRAM),
            )
            .map(|p| (p.label(), lock.program_crates(p).into_iter().next()))
            .chain(
                others
                    .iter()
                    .filter(|p| p.framework != Framework::SOLANA_PROGRAM)
                    .map(|p| {
                        let name = p.framework.crate_name();
                        let version = framework_locks[&p.framework].version(name);
                        (p.label(), version.map(|v| (name.to_string(), v)))
                    }),
            )
            .collect::<BTreeMap<_, _>>(),
        encodings: programs
            .iter()
            .filter(|p| p.family == Family::Token)
            .map(|p| (p.name.clone(), p.encoding))
            .collect(),
        mainnet: Mainnet::read(workspace).map_err(HarnessError::Report)?,
        // A tree without a committed baseline has no deltas.
        baseline: Baseline::read(&workspace.baseline_path())
            .map(|b| b.compute_units)
            .unwrap_or_default(),
    };
    let cases = CasesFile {
        provenance: serde_json::to_value(&run.provenance).expect("JSON"),
        cases: measured.exported,
    };
    crate::report::write_files(&run, &cases, &workspace.benches_dir())
        .map_err(HarnessError::Report)?;
    Ok(run)
}

/// `make bench-check`: the differences from the committed baseline.
pub fn check(workspace: &Workspace, run: &Run) -> Result<Vec<String>, HarnessError> {
    let baseline = Baseline::read(&workspace.baseline_path()).map_err(|e| {
        HarnessError::Report(format!("{e}; run `make bench-baseline` and commit it"))
    })?;
    Ok(baseline.differences(&Baseline::of(run)))
}

/// `make bench-baseline`: rewrite the committed baseline, and the charts
/// the README shows, from `run`.
pub fn write_baseline(workspace: &Workspace, run: &Run) -> Result<(), HarnessError> {
    Baseline::of(run)
        .write(&workspace.baseline_path())
        .map_err(HarnessError::Report)?;
    let charts = [
        ("benches/compute_units.svg", charts::token::svg(run)),
        ("benches/message_cus.svg", charts::message::message_svg(run)),
        (
            "benches/message_heap.svg",
            charts::message::message_heap_svg(run),
        ),
        (
            "benches/metadata_cus.svg",
            charts::metadata::metadata_svg(run),
        ),
    ];
    for (path, svg) in charts {
        let path = workspace.root.join(path);
        fs::write(&path, svg.map_err(HarnessError::Report)?)
            .map_err(|e| HarnessError::Report(format!("writing {}: {e}", path.display())))?;
    }
    Ok(())
}
