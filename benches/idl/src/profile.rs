//! `make idl PROFILE=1`: every row of the run profiled as `make profile`
//! profiles the benchmark's, once for all three sites. Each program the
//! run kept was built with line tables, its `.so.debug` beside the
//! measured `.so` (checked byte for byte against it), each of its rows' calls
//! (`cases.json`'s) runs again traced with every syscall metered, and the
//! trace is attributed to inlined frames, summing exactly to the row's
//! CUs. The files go under the run's `profile/`, each record of its
//! `results.json` gains `profile`, `categories` and `frames`, and
//! `summary.md` says, move by move, which categories make the difference.

use std::{collections::BTreeMap, fs, path::Path};

use benches::{
    exported::ExportedCase,
    profile::{
        Named, ProfiledRow, Symbols, attribute, output,
        profiler::{Naming, named_by},
        summary,
    },
};

use crate::render::RowFormat;

/// A built program whose rows the run kept: its crate and its `.so`.
#[derive(Clone, Debug)]
pub struct KeptProgram {
    pub name: String,
    pub package: String,
    pub format: RowFormat,
    pub so: std::path::PathBuf,
}

/// Every row's profile, and how each program's code was named.
#[derive(Default)]
pub struct Profiles {
    pub rows: Vec<ProfiledRow>,
    pub namings: BTreeMap<String, Naming>,
}

impl Profiles {
    /// The profile of the row named `key` (`results.json`'s `row`).
    pub fn of(&self, key: &str) -> Option<&benches::profile::Profile> {
        self.rows.iter().find(|r| r.row == key).map(|r| &r.profile)
    }
}

/// Profiles every case of `cases` (the run's, under the project's
/// `root`) with its program among `programs`; a call whose CUs
/// differ from its measured ones, or whose profile does not sum to them,
/// fails the run by name.
pub fn profile(
    root: &Path,
    programs: &[KeptProgram],
    cases: &[ExportedCase],
    progress: &mut dyn FnMut(&str),
) -> Result<Profiles, String> {
    let mut profiles = Profiles::default();
    for program in programs {
        let so = program.so.strip_prefix(root).unwrap_or(&program.so);
        let mine: Vec<&ExportedCase> = cases.iter().filter(|c| Path::new(&c.so) == so).collect();
        if mine.is_empty() {
            continue;
        }
        let debug = split_debug::debug_path(&program.so);
        let copy = fs::read(&debug).map_err(|_| {
            format!(
                "no {} (LLVM could not write its line tables: its build.log says why)",
                debug.display()
            )
        });
        let naming = profile_program(program, &mine, copy, &mut profiles.rows)?;
        let how = match &naming {
            Naming::Inlined { .. } => "inlined frame".to_string(),
            Naming::Functions(why) => format!("function ({why})"),
        };
        progress(&format!("  {}: profiled, named by {how}", program.name));
        profiles.namings.insert(program.name.clone(), naming);
    }
    Ok(profiles)
}

/// Runs each of `cases` (at least one) on `program`'s measured `.so`,
/// traced, and attributes it into `rows`, named from `copy` (its
/// `.so.debug`'s bytes, or why there are none); returns how its code was named.
fn profile_program(
    program: &KeptProgram,
    cases: &[&ExportedCase],
    copy: Result<Vec<u8>, String>,
    rows: &mut Vec<ProfiledRow>,
) -> Result<Naming, String> {
    let measured = fs::read(&program.so).map_err(|e| format!("{}: {e}", program.so.display()))?;
    let program_id = cases[0].program_id()?;
    let (mut mollusk, recorder) = benches::vm::profiling_mollusk_for(&program_id, &measured)
        .map_err(|e| format!("make idl PROFILE=1: {}: {e}", program.name))?;
    let mut copy = Some(copy);
    let mut named: Option<(Box<dyn Symbols>, Naming)> = None;
    for case in cases {
        let failed = |why: String| format!("make idl PROFILE=1: {}: {why}", case.row);
        mollusk.compute_budget.heap_size = case.heap_frame;
        recorder.take();
        let result = mollusk.process_instruction(&case.instruction()?, &case.accounts()?);
        let cus = result.compute_units_consumed;
        if cus != case.cus {
            return Err(failed(format!(
                "{cus} CUs profiled, {} measured: profiling must not change a CU",
                case.cus
            )));
        }
        let recorded = recorder
            .take()
            .pop()
            .filter(|r| !r.runs.is_empty())
            .ok_or_else(|| failed("no trace of the call".into()))?;
        // Named from the first call's run: where its functions start.
        let (symbols, _) = named.get_or_insert_with(|| {
            let copy = copy.take().expect("named once");
            named_by(&recorded.runs[0], &measured, copy)
        });
        let named = |id: &solana_pubkey::Pubkey| {
            (*id == program_id).then(|| Named {
                label: program.name.clone(),
                symbols: symbols.as_ref(),
            })
        };
        let profile = attribute(&recorded, cus, &named).map_err(failed)?;
        if profile.total() != cus {
            return Err(failed(format!(
                "the profile sums to {} CUs, the call consumed {cus}",
                profile.total()
            )));
        }
        rows.push(ProfiledRow {
            row: case.row.clone(),
            family: "idl",
            framework: program.format.framework(),
            profile,
        });
    }
    Ok(named.expect("at least one case").1)
}

/// The opening of a run's `profile/summary.md`.
const INTRO: &str = "# Where the CUs go\n\nEach row of this `make idl` run, its CUs by category (`make idl PROFILE=1`; the rules: `benches/src/profile/categories.rs`). Every row's categories sum to its CUs; its flamegraph, folded stacks and frames table are beside this file, under the row's name. `summary.md` beside `profile/` sets each move's categories against today's path.\n";

/// Writes the profiles under `dir/profile/` (the run's folder: per row a
/// `.folded`, `.svg` and `.md`, and `summary.md`) and gives each record of
/// `dir/results.json` its `profile`, `categories` and `frames`.
pub fn write(dir: &Path, profiles: &Profiles) -> Result<(), String> {
    let out = dir.join("profile");
    if out.exists() {
        fs::remove_dir_all(&out).map_err(|e| format!("clearing {}: {e}", out.display()))?;
    }
    output::write(&out, &profiles.rows)?;
    let text = summary::markdown(INTRO, &profiles.rows, &profiles.namings);
    fs::write(out.join("summary.md"), text)
        .map_err(|e| format!("writing {}: {e}", out.join("summary.md").display()))?;
    summary::annotate(&dir.join("results.json"), &profiles.rows)
}
