//! The passes over a group of the plan: untraced (every case checked
//! against its contract, its CUs), traced (each case's footprint, and with
//! a profiler its profile, the CUs held to the untraced pass's), and its
//! cases exported for another harness.

use mollusk_svm::Mollusk;

use super::plan::Group;
use crate::{
    Case, Expected, Framework, HarnessError, Program, Workspace,
    exported::ExportedCase,
    profile::{self, Profiler},
    report::Measurement,
    trace::{self, Footprint},
};

/// A group's `cases` (its rows' or its floor's) in its `mollusk`: run and
/// checked, traced, and exported.
pub fn measure(
    workspace: &Workspace,
    group: &Group,
    cases: &[Case],
    mollusk: &Mollusk,
    profiler: Option<&mut Profiler>,
    exported: &mut Vec<ExportedCase>,
) -> Result<Vec<Measurement>, HarnessError> {
    let mut measured = untraced(cases, mollusk)?;
    traced(
        workspace,
        (&group.programs, &group.elfs),
        cases,
        &mut measured,
        profiler,
    )?;
    exported.extend(export(workspace, &group.programs, cases, &measured));
    Ok(measured)
}

/// The untraced pass: every case run and checked against its contract,
/// its CUs measured.
pub fn untraced(cases: &[Case], mollusk: &Mollusk) -> Result<Vec<Measurement>, HarnessError> {
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
pub fn traced(
    workspace: &Workspace,
    (programs, elfs): (&[Program], &[Vec<u8>]),
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
