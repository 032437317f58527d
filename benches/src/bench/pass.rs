//! One pass over a group of the plan: each case run and checked against
//! its contract (its CUs), then traced (its footprint, and with a profiler
//! its profile, the CUs held to the first run's); then the group's cases
//! exported for another harness.

use mollusk_svm::{Mollusk, result::InstructionResult};

use super::plan::Loaded;
use crate::{
    Case, Expected, Framework, HarnessError, Program, Workspace,
    exported::ExportedCase,
    profile::{self, Profiler, Recorder},
    report::Measurement,
    trace::{self, Footprint, Tracer},
};

/// A loaded group's `cases` (its rows' or its floor's) in one pass: each
/// case run in its Mollusk and checked against its contract, then run again
/// in a Mollusk that records its execution (its footprint, and with a
/// profiler its profile, the CUs held to the first run's); then the
/// cases exported.
pub fn measure(
    workspace: &Workspace,
    group: &Loaded,
    cases: &[Case],
    profiler: Option<&mut Profiler>,
    exported: &mut Vec<ExportedCase>,
) -> Result<Vec<Measurement>, HarnessError> {
    let mut tracing = Tracing::new(workspace, (&group.programs, &group.elfs), profiler)?;
    let mut measured = Vec::with_capacity(cases.len());
    for case in cases {
        let mut m = untraced_one(case, &group.mollusk)?;
        tracing.trace(case, &mut m, &group.programs)?;
        measured.push(m);
    }
    exported.extend(export(workspace, &group.programs, cases, &measured));
    Ok(measured)
}

/// Every case run and checked against its contract, its CUs measured.
pub fn untraced(cases: &[Case], mollusk: &Mollusk) -> Result<Vec<Measurement>, HarnessError> {
    cases
        .iter()
        .map(|case| untraced_one(case, mollusk))
        .collect()
}

/// One case run and checked against its contract, its CUs measured.
fn untraced_one(case: &Case, mollusk: &Mollusk) -> Result<Measurement, HarnessError> {
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
}

/// The Mollusk that records each case's execution: its footprint, and
/// with a profiler (`make profile`) every syscall metered and the call
/// profiled.
enum Tracing<'p> {
    Footprints(Mollusk, Tracer),
    Profiles(Mollusk, Recorder, &'p mut Profiler),
}

impl<'p> Tracing<'p> {
    fn new(
        workspace: &Workspace,
        (programs, elfs): (&[Program], &[Vec<u8>]),
        profiler: Option<&'p mut Profiler>,
    ) -> Result<Self, HarnessError> {
        Ok(match profiler {
            None => {
                let (mollusk, tracer) = workspace.traced_mollusk(programs, elfs)?;
                Tracing::Footprints(mollusk, tracer)
            }
            Some(profiler) => {
                let (mollusk, recorder) = workspace.profiling_mollusk(programs, elfs)?;
                Tracing::Profiles(mollusk, recorder, profiler)
            }
        })
    }

    /// `case` run again, traced: `m`'s footprint (and its profile); the
    /// CUs must be the untraced run's.
    fn trace(
        &mut self,
        case: &Case,
        m: &mut Measurement,
        programs: &[Program],
    ) -> Result<(), HarnessError> {
        let no_trace = || HarnessError::Report(format!("{}: no trace of the call", case.name()));
        let footprint = match self {
            Tracing::Footprints(mollusk, tracer) => {
                let result = case.run(mollusk)?;
                let footprint = Footprint::of_call(&tracer.take()).ok_or_else(no_trace)?;
                check_cus(case, &result, m)?;
                footprint
            }
            Tracing::Profiles(mollusk, recorder, profiler) => {
                let result = case.run(mollusk)?;
                let [recorded] = <[_; 1]>::try_from(recorder.take()).map_err(|_| no_trace())?;
                let footprints: Vec<Footprint> = recorded
                    .runs
                    .iter()
                    .map(|run| trace::footprint(&run.text, &run.trace))
                    .collect();
                let footprint = Footprint::of_call(&footprints).ok_or_else(no_trace)?;
                check_cus(case, &result, m)?;
                profiler
                    .profile(profile_row(m), m.cus, programs, &recorded)
                    .map_err(|e| HarnessError::Report(format!("make profile: {e}")))?;
                footprint
            }
        };
        m.footprint = Some(footprint);
        Ok(())
    }
}

/// Tracing must not change a CU.
fn check_cus(case: &Case, result: &InstructionResult, m: &Measurement) -> Result<(), HarnessError> {
    if result.compute_units_consumed != m.cus {
        return Err(HarnessError::Report(format!(
            "{}: {} CUs traced, {} untraced: tracing must not change a CU",
            case.name(),
            result.compute_units_consumed,
            m.cus
        )));
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
