//! One `make bench` run: the plan's groups (`plan`), each case checked
//! against its contract and measured, then traced (and profiled) in the
//! same pass (`pass`), the floor with them; mollusk-svm-bencher's tables
//! (`bencher`); then the summary, JSON and charts, all from the same run.

pub mod bencher;
pub mod pass;
pub mod plan;

use std::{collections::BTreeMap, fs};

use bencher::Bencher;
use plan::Group;

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

/// The crates' programs, family by family: their rows, the floor's, what
/// each message and metadata program validates, and each family's bencher.
struct Families {
    measurements: Vec<Measurement>,
    floor: Vec<Measurement>,
    /// Per message program, what it validates of the parts an
    /// operation does not read (`message::validates_unread`).
    validation: BTreeMap<String, Vec<(&'static str, bool)>>,
    /// The same, per metadata program.
    metadata_validation: BTreeMap<String, Vec<(&'static str, bool)>>,
    benchers: Vec<Bencher>,
}

/// The crates' groups: every family's programs in its own Mollusk, with
/// its heap frame; the floor in the token family's.
fn measure_families(
    workspace: &Workspace,
    groups: &[Group],
    mut profiler: Option<&mut Profiler>,
    exported: &mut Vec<ExportedCase>,
) -> Result<Families, HarnessError> {
    let mut out = Families {
        measurements: Vec::new(),
        floor: Vec::new(),
        validation: BTreeMap::new(),
        metadata_validation: BTreeMap::new(),
        benchers: Vec::new(),
    };
    for group in groups {
        let mollusk = group.mollusk(workspace)?;
        let mut measure = |cases: &[Case]| {
            pass::measure(
                workspace,
                group,
                cases,
                &mollusk,
                profiler.as_deref_mut(),
                exported,
            )
        };
        out.measurements.extend(measure(&group.cases)?);
        if !group.floor_cases.is_empty() {
            out.floor = measure(&group.floor_cases)?;
        }
        for program in &group.programs {
            match group.family {
                Family::Message => {
                    let probes = message::validates_unread(program, &mollusk)?;
                    out.validation.insert(program.name.clone(), probes);
                }
                Family::Metadata => {
                    let probes = metadata::validates_unread(program, &mollusk)?;
                    out.metadata_validation.insert(program.name.clone(), probes);
                }
                Family::Token => {}
            }
        }
        let dir = group.bencher_dir(workspace);
        out.benchers.push((dir, mollusk, group.cases.clone()));
    }
    Ok(out)
}

/// The other frameworks' groups: the same checks, the same traced pass,
/// their own rows and bencher tables.
fn measure_frameworks(
    workspace: &Workspace,
    groups: &[Group],
    mut profiler: Option<&mut Profiler>,
    exported: &mut Vec<ExportedCase>,
    benchers: &mut Vec<Bencher>,
) -> Result<Vec<Measurement>, HarnessError> {
    let mut frameworks = Vec::new();
    for group in groups {
        let mollusk = group.mollusk(workspace)?;
        frameworks.extend(pass::measure(
            workspace,
            group,
            &group.cases,
            &mollusk,
            profiler.as_deref_mut(),
            exported,
        )?);
        benchers.push((group.bencher_dir(workspace), mollusk, group.cases.clone()));
    }
    Ok(frameworks)
}

/// Every row of `workspace` measured against its contract and profiled
/// into `profiler`, nothing written: `make bench-diff` measures another
/// revision's programs (its worktree as `workspace`) with this one's cases.
pub fn profile_rows(workspace: &Workspace, profiler: &mut Profiler) -> Result<(), HarnessError> {
    measure_all(workspace, Some(profiler)).map(|_| ())
}

/// Every program of `workspace` measured (and profiled into `profiler`)
/// against its contract: each group's programs, their bytes and their
/// measurements.
struct Measured {
    programs: Vec<Program>,
    elfs: Vec<Vec<u8>>,
    families: Families,
    others: Vec<Program>,
    other_elfs: Vec<Vec<u8>>,
    frameworks: Vec<Measurement>,
    exported: Vec<ExportedCase>,
}

fn measure_all(
    workspace: &Workspace,
    mut profiler: Option<&mut Profiler>,
) -> Result<Measured, HarnessError> {
    let programs = workspace.programs()?;
    let elfs = programs
        .iter()
        .map(|p| workspace.elf(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut exported = Vec::new();
    let family_groups = plan::families(workspace, (&programs, &elfs))?;
    let mut families = measure_families(
        workspace,
        &family_groups,
        profiler.as_deref_mut(),
        &mut exported,
    )?;
    // Read after the crates' programs are measured, so that a bad crate
    // program is named before its missing copy on another entrypoint.
    let others = workspace.framework_programs();
    let other_elfs = others
        .iter()
        .map(|p| workspace.elf(p))
        .collect::<Result<Vec<_>, _>>()?;
    let framework_groups = plan::frameworks((&others, &other_elfs))?;
    let frameworks = measure_frameworks(
        workspace,
        &framework_groups,
        profiler,
        &mut exported,
        &mut families.benchers,
    )?;
    Ok(Measured {
        programs,
        elfs,
        families,
        others,
        other_elfs,
        frameworks,
        exported,
    })
}

/// [`run`], with every row profiled into `profiler` in its traced pass.
/// Every result is checked before any number is written.
pub fn run_with(
    workspace: &Workspace,
    profiler: Option<&mut Profiler>,
) -> Result<Run, HarnessError> {
    let Measured {
        programs,
        elfs,
        mut families,
        others,
        other_elfs,
        frameworks,
        exported,
    } = measure_all(workspace, profiler)?;
    let benchers = std::mem::take(&mut families.benchers);
    bencher::write_tables(benchers)?;

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
        measurements: families.measurements,
        floor: families.floor,
        frameworks,
        validation: families.validation,
        metadata_validation: families.metadata_validation,
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
        cases: exported,
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
