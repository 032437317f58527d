//! One `make bench` run: check every program x operation against the
//! contract, measure the floor, let mollusk-svm-bencher write its table,
//! and write the summary, JSON and chart, all from the same run.

use std::{collections::BTreeMap, fs};

use mollusk_svm::Mollusk;
use mollusk_svm_bencher::MolluskComputeUnitBencher;

use crate::{
    Case, Expected, Family, Framework, HarnessError, Program, Workspace,
    baseline::Baseline,
    exported::{CasesFile, ExportedCase},
    families::{cases, framework_cases},
    lock::Lock,
    mainnet::Mainnet,
    message, metadata,
    profile::{self, Profiler},
    provenance::Provenance,
    report::{Measurement, Run, charts},
    trace::{self, Footprint},
};

/// The floor's cases: the same calls, which must succeed and change nothing.
pub(crate) fn floor_cases(floor: &[Program]) -> Vec<Case> {
    let mut cases = cases(floor).expect("the floor is a token program");
    for case in &mut cases {
        case.expected = Expected::Success(case.accounts[0].1.data.clone());
    }
    cases
}

fn run_all(cases: &[Case], mollusk: &Mollusk) -> Result<Vec<Measurement>, HarnessError> {
    cases
        .iter()
        .map(|case| {
            case.run(mollusk).map(|result| Measurement {
                framework: case.framework,
                family: case.family,
                program: case.name.clone(),
                shape: case.shape,
                operation: case.operation.clone(),
                size: case.size,
                instance: case.instance,
                encoded_bytes: case.encoded_bytes,
                // The token family's is its encoding's, in the report;
                // another framework's program's holds its discriminator
                // or header too.
                account_bytes: (case.instance.is_some() || case.framework != Framework::PINOCCHIO)
                    .then(|| case.accounts[0].1.data.len()),
                error: match &case.expected {
                    Expected::Failure(error) => Some(format!("{error:?}")),
                    Expected::Success(_) => None,
                },
                cus: result.compute_units_consumed,
                footprint: None,
            })
        })
        .collect()
}

/// The traced pass: every case again in a Mollusk that records its
/// execution, each one's footprint beside its CUs (and, with a profiler,
/// its profile); the CUs must be the untraced run's.
fn trace_all(
    workspace: &Workspace,
    programs: &[Program],
    elfs: &[Vec<u8>],
    cases: &[Case],
    measured: &mut [Measurement],
    profiler: Option<&mut Profiler>,
) -> Result<(), HarnessError> {
    let traced = |case: &Case, result: &mollusk_svm::result::InstructionResult, m: &Measurement| {
        if result.compute_units_consumed != m.cus {
            return Err(HarnessError::Report(format!(
                "{}: {} CUs traced, {} untraced: tracing must not change a CU",
                case.name(),
                result.compute_units_consumed,
                m.cus
            )));
        }
        Ok(())
    };
    let no_trace =
        |case: &Case| HarnessError::Report(format!("{}: no trace of the call", case.name()));
    match profiler {
        None => {
            let (mollusk, tracer) = workspace.traced_mollusk(programs, elfs)?;
            for (case, m) in cases.iter().zip(measured) {
                let result = case.run(&mollusk)?;
                let footprint = Footprint::of_call(&tracer.take()).ok_or_else(|| no_trace(case))?;
                traced(case, &result, m)?;
                m.footprint = Some(footprint);
            }
        }
        Some(profiler) => {
            let (mollusk, recorder) = workspace.profiling_mollusk(programs, elfs)?;
            for (case, m) in cases.iter().zip(measured) {
                let result = case.run(&mollusk)?;
                let [recorded] = <[_; 1]>::try_from(recorder.take()).map_err(|_| no_trace(case))?;
                let footprints: Vec<Footprint> = recorded
                    .runs
                    .iter()
                    .map(|run| trace::footprint(&run.text, &run.trace))
                    .collect();
                let footprint = Footprint::of_call(&footprints).ok_or_else(|| no_trace(case))?;
                traced(case, &result, m)?;
                m.footprint = Some(footprint);
                profiler
                    .profile(profile_row(m), m.cus, programs, &recorded)
                    .map_err(|e| HarnessError::Report(format!("make profile: {e}")))?;
            }
        }
    }
    Ok(())
}

/// A measured row's name and grouping, for its profile.
fn profile_row(m: &Measurement) -> profile::ProfiledRow {
    profile::ProfiledRow {
        row: m.row(),
        family: m.family.name(),
        framework: m.framework.name(),
        profile: profile::Profile::default(),
    }
}

/// Runs every program's cases once, family by family, failing on the
/// first result the contract rejects.
pub fn measure(workspace: &Workspace) -> Result<Vec<Measurement>, HarnessError> {
    let programs = workspace.programs()?;
    let mut measurements = Vec::new();
    for family in Family::ALL {
        if programs.iter().any(|p| p.family == family) {
            let (programs, mollusk) = workspace.load(family)?;
            measurements.extend(run_all(&cases(&programs)?, &mollusk)?);
        }
    }
    Ok(measurements)
}

/// Runs every other framework's programs' cases once, framework by
/// framework and family by family (each with its own Mollusk), failing on
/// the first result that framework's contract rejects.
pub fn measure_frameworks(workspace: &Workspace) -> Result<Vec<Measurement>, HarnessError> {
    let mut measurements = Vec::new();
    for (programs, mollusk) in workspace.framework_groups()? {
        measurements.extend(run_all(&framework_cases(&programs)?, &mollusk)?);
    }
    Ok(measurements)
}

/// Each measured case as data for another harness (`cases.json`): the
/// `.so` path relative to the workspace, the family's heap frame, the CUs.
fn export(
    workspace: &Workspace,
    programs: &[Program],
    cases: &[Case],
    measured: &[Measurement],
) -> Vec<ExportedCase> {
    cases
        .iter()
        .zip(measured)
        .map(|(case, m)| {
            let program = programs
                .iter()
                .find(|p| p.label() == case.program)
                .expect("a case's program is loaded");
            let so = program
                .so_path
                .strip_prefix(&workspace.root)
                .unwrap_or(&program.so_path);
            let exported = case.exported(&so.to_string_lossy(), program.family.heap_frame(), m.cus);
            match m.footprint {
                Some(footprint) => exported.with_footprint(footprint),
                None => exported,
            }
        })
        .collect()
}

/// The folder of a family's bencher table: `target/benches/` for the token
/// family (where it has always been), `target/benches/<family>/` for others.
pub fn bencher_dir(workspace: &Workspace, family: Family) -> std::path::PathBuf {
    match family {
        Family::Token => workspace.benches_dir(),
        other => workspace.benches_dir().join(other.name()),
    }
}

/// The whole run, with every file of target/benches/ written.
pub fn run(workspace: &Workspace) -> Result<Run, HarnessError> {
    run_with(workspace, None)
}

/// A group of programs, their ELFs and cases, in one Mollusk: run and
/// checked, traced, and exported. Every group of a run is measured so:
/// each family (with the floor), each other framework's family.
fn measure_group(
    workspace: &Workspace,
    (group, elfs): (&[Program], &[Vec<u8>]),
    cases: &[Case],
    mollusk: &Mollusk,
    profiler: Option<&mut Profiler>,
    exported: &mut Vec<ExportedCase>,
) -> Result<Vec<Measurement>, HarnessError> {
    let mut measured = run_all(cases, mollusk)?;
    trace_all(workspace, group, elfs, cases, &mut measured, profiler)?;
    exported.extend(export(workspace, group, cases, &measured));
    Ok(measured)
}

/// `programs` and their `elfs` of one framework and family (none where
/// it has no program).
fn group_of(
    programs: &[Program],
    elfs: &[Vec<u8>],
    framework: Framework,
    family: Family,
) -> (Vec<Program>, Vec<Vec<u8>>) {
    programs
        .iter()
        .zip(elfs)
        .filter(|(p, _)| p.framework == framework && p.family == family)
        .map(|(p, elf)| (p.clone(), elf.clone()))
        .unzip()
}

/// Where a group's bencher table goes, its Mollusk and its cases.
type Bencher = (std::path::PathBuf, Mollusk, Vec<Case>);

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

/// Every family's programs in its own Mollusk, with its heap frame; the
/// floor in the token family's.
fn measure_families(
    workspace: &Workspace,
    (programs, elfs): (&[Program], &[Vec<u8>]),
    mut profiler: Option<&mut Profiler>,
    exported: &mut Vec<ExportedCase>,
) -> Result<Families, HarnessError> {
    let floor = workspace.floor();
    let floor_elfs = floor
        .iter()
        .map(|p| workspace.elf(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut out = Families {
        measurements: Vec::new(),
        floor: Vec::new(),
        validation: BTreeMap::new(),
        metadata_validation: BTreeMap::new(),
        benchers: Vec::new(),
    };
    for family in Family::ALL {
        let (mut group, mut group_elfs) = group_of(programs, elfs, Framework::PINOCCHIO, family);
        if group.is_empty() {
            continue;
        }
        let family_cases = cases(&group)?;
        if family == Family::Token {
            group.extend(floor.iter().cloned());
            group_elfs.extend(floor_elfs.iter().cloned());
        }
        let mollusk = workspace.mollusk_with(&group, &group_elfs)?;
        let loaded = (group.as_slice(), group_elfs.as_slice());
        let measured = measure_group(
            workspace,
            loaded,
            &family_cases,
            &mollusk,
            profiler.as_deref_mut(),
            exported,
        )?;
        out.measurements.extend(measured);
        if family == Family::Token {
            let floor_cases = floor_cases(&floor);
            out.floor = measure_group(
                workspace,
                loaded,
                &floor_cases,
                &mollusk,
                profiler.as_deref_mut(),
                exported,
            )?;
        }
        for program in &group {
            match family {
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
        out.benchers
            .push((bencher_dir(workspace, family), mollusk, family_cases));
    }
    Ok(out)
}

/// The other frameworks' programs, framework by framework and family by
/// family, each with its floor: the same checks, the same traced pass,
/// their own rows and bencher tables.
fn measure_frameworks_traced(
    workspace: &Workspace,
    (others, elfs): (&[Program], &[Vec<u8>]),
    mut profiler: Option<&mut Profiler>,
    exported: &mut Vec<ExportedCase>,
    benchers: &mut Vec<Bencher>,
) -> Result<Vec<Measurement>, HarnessError> {
    let mut frameworks = Vec::new();
    for (framework, family) in
        Framework::others().flat_map(|fw| Family::ALL.map(|family| (fw, family)))
    {
        let (group, group_elfs) = group_of(others, elfs, framework, family);
        if group.is_empty() {
            continue;
        }
        let group_cases = framework_cases(&group)?;
        let mollusk = workspace.mollusk_with(&group, &group_elfs)?;
        frameworks.extend(measure_group(
            workspace,
            (&group, &group_elfs),
            &group_cases,
            &mollusk,
            profiler.as_deref_mut(),
            exported,
        )?);
        let dir = workspace
            .benches_dir()
            .join(framework.name())
            .join(family.name());
        benchers.push((dir, mollusk, group_cases));
    }
    Ok(frameworks)
}

/// mollusk-svm-bencher's table of each group, from the cases every one
/// of which was checked against its contract first.
fn write_bencher_tables(benchers: Vec<Bencher>) -> Result<(), HarnessError> {
    for (dir, mollusk, cases) in benchers {
        fs::create_dir_all(&dir)
            .map_err(|e| HarnessError::Report(format!("creating {}: {e}", dir.display())))?;
        let names: Vec<String> = cases.iter().map(Case::name).collect();
        // The bencher's own check only holds where every call succeeds
        // (the metadata family has error-path rows).
        let all_succeed = cases
            .iter()
            .all(|c| matches!(c.expected, Expected::Success(_)));
        let mut bencher = MolluskComputeUnitBencher::new(mollusk)
            .must_pass(all_succeed)
            .out_dir(dir.to_str().expect("UTF-8 path"));
        for (name, case) in names.iter().zip(&cases) {
            bencher = bencher.bench((name, &case.instruction, &case.accounts));
        }
        bencher.execute();
    }
    Ok(())
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
    let mut families = measure_families(
        workspace,
        (&programs, &elfs),
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
    let frameworks = measure_frameworks_traced(
        workspace,
        (&others, &other_elfs),
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
    write_bencher_tables(benchers)?;

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
