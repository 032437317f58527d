//! `make idl`, stage by stage: read the IDL, resolve its accounts, plan,
//! write and build the programs, measure and check every case, write the
//! report. The accounts' programs (one an account type and format), the
//! instructions' and the events' (of several items each) are built and
//! measured by one driver ([`site`]).

mod instances;
mod probe;
mod site;
mod tally;

use std::{
    fs,
    path::{Path, PathBuf},
};

use benches::{exported::CasesFile, files, lock::Lock, provenance::Provenance};
use solana_pubkey::Pubkey;

use self::{site::AccountProgram, tally::Tally};
use crate::{
    capacity::{self, Capacities, Choices},
    generate, guard,
    input::{self, Assumptions},
    measure::Row,
    model::{self, Program},
    plan::{self, FieldChoices, NoRow, Plan},
    profile::{self, Profiles},
    render::anchor1::Release,
    report,
    value::{self, Lengths},
};

/// What the user asked for.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub assumptions: Assumptions,
    pub lengths: Lengths,
    pub fields: FieldChoices,
    /// `DATA=<dir>`: accounts' own bytes, used instead of the generated
    /// instances where a file is there.
    pub data: Option<PathBuf>,
    /// `ANCHOR=<version>`: the anchor-lang release the Anchor programs
    /// build with (`None`: `programs/anchor1/`'s pin).
    pub anchor: Option<Release>,
    /// `PROFILE=1`: every row profiled ([`crate::profile`]).
    pub profile: bool,
    /// `ACCOUNTS=<dir>`: the team's accounts, each variable account type
    /// sized at fixed capacity from them ([`crate::capacity`]).
    pub accounts: Option<PathBuf>,
    /// `CAPACITY=<Type.field=N,...>`: capacities set by hand.
    pub capacities: Choices,
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct Run {
    pub program: Program,
    pub rows: Vec<Row>,
    pub refused: Vec<NoRow>,
    /// Instructions with no row in a format, and why.
    pub skipped: Vec<NoRow>,
    /// Where the report went.
    pub dir: PathBuf,
    pub summary: String,
    /// Contract failures (a bug in a generated program or the oracle).
    pub failures: Vec<String>,
}

/// Runs every stage on the IDL at `idl`; `root` is the repository.
/// `progress` hears a line per program.
pub fn run(
    root: &Path,
    idl: &Path,
    options: &Options,
    progress: &mut dyn FnMut(&str),
) -> Result<Run, String> {
    let shown = idl.display().to_string();
    guard::stage("reading", &shown);
    let parsed = input::read(idl).map_err(|e| e.to_string())?;
    guard::stage("resolving", &shown);
    let mut program = model::resolve(&parsed, &options.assumptions);
    // The report names the IDL as the repository knows it
    // (`benches/idl/idls/token.json`), not by a checkout's absolute path.
    if let Ok(inside) = idl.strip_prefix(root) {
        program.path = inside.display().to_string();
    }
    guard::stage("sizing", &shown);
    let mut capacities = capacities(&program, options)?;
    value::refuse_unmeasurable(&mut program, options.lengths);
    let mut instances = instances::instances(&mut program, options)?;
    instances::fixed_capacity(&mut program, &mut capacities, &mut instances);
    guard::stage("planning", &shown);
    let mut plans = plan::plan(&program, &options.fields);
    let (mut arguments, mut skipped) = plan::plan_arguments(&program, &options.fields);
    let (mut events, skipped_events) = plan::plan_events(&program);
    skipped.extend(skipped_events);
    let release = match options.anchor {
        Some(release) => release,
        None => crate::render::anchor1::release("")?,
    };
    let dir = generate::write(
        root,
        &program,
        &release,
        &mut plans,
        &mut arguments,
        &mut events,
        &mut skipped,
    )
    .map_err(|e| format!("{}: writing the generated programs: {e}", program.path))?;
    // An earlier run's replay belongs to its cases: this run's replace them.
    for stale in ["cases.json", "litesvm.md", "litesvm.json"] {
        let _ = fs::remove_file(dir.join(stale));
    }
    let _ = fs::remove_dir_all(dir.join("fixtures"));
    let mut tally = Tally::default();
    let accounts: Vec<AccountProgram> = plans
        .iter()
        .filter_map(|plan| match plan {
            Plan::Build(planned) => Some(planned.clone()),
            Plan::Skip { .. } => None,
        })
        .map(|planned| {
            let instances = &instances[&planned.account];
            AccountProgram::new(planned, &release, instances)
        })
        .collect();
    let (lengths, items) = (options.lengths, (root, dir.as_path(), &program));
    // Every program's first build, together: both cores, and cargo's
    // start paid once for the crates whose manifests are alike.
    guard::stage("building", &shown);
    let mut crates = site::crates(items, &accounts)?;
    crates.extend(site::crates(items, &arguments)?);
    crates.extend(site::crates(items, &events)?);
    generate::build_together(root, &dir, &crates);
    let mut measured = (&mut skipped, &mut tally);
    site::build_and_measure(items, accounts, lengths, &mut measured, progress)?;
    site::build_and_measure(items, arguments, lengths, &mut measured, progress)?;
    site::build_and_measure(items, events, lengths, &mut measured, progress)?;
    let profiles = if options.profile {
        guard::stage("profiling", &shown);
        let (programs, cases) = (&tally.programs, &tally.cases);
        Some(profile::profile(root, programs, cases, progress)?)
    } else {
        None
    };
    let run = write_report(
        root,
        dir,
        (program, &plans),
        tally,
        skipped,
        &release,
        (profiles.as_ref(), &capacities),
    )?;
    if let Some(profiles) = &profiles {
        profile::write(&run.dir, profiles)?;
    }
    Ok(run)
}

/// Writes `summary.md` (with `profiles`, which categories make each
/// move's difference), `results.json` and `cases.json` into `dir`.
fn write_report(
    root: &Path,
    dir: PathBuf,
    (program, plans): (Program, &[Plan]),
    tally: Tally,
    skipped: Vec<NoRow>,
    release: &Release,
    (profiles, capacities): (Option<&Profiles>, &Capacities),
) -> Result<Run, String> {
    let Tally {
        rows,
        failures,
        hostile,
        elfs,
        cases,
        refused,
        programs: _,
    } = tally;
    let provenance = provenance(root, &dir, &elfs);
    let moves = report::moves::of(&program, &rows, capacities);
    let mut summary = report::summary(
        &program,
        plans,
        (&rows, &moves),
        &refused,
        &skipped,
        &provenance,
        &hostile,
    );
    summary.push_str(&capacity::report::section(capacities));
    if let Some(profiles) = profiles {
        summary.push_str(&report::categories::section(
            &program,
            (&rows, &moves),
            profiles,
        ));
    }
    let cases = CasesFile {
        provenance: serde_json::to_value(&provenance).expect("JSON"),
        cases,
    };
    let report = [
        ("summary.md", summary.clone()),
        (
            "results.json",
            report::json(
                &program,
                &rows,
                &refused,
                &skipped,
                (&moves, release.version),
            ),
        ),
        ("cases.json", cases.to_text()),
    ];
    for (file, text) in report {
        files::write_whole(&dir.join(file), &text)?;
    }
    // An earlier run's sizing belongs to its accounts.
    let sized = dir.join("capacities.json");
    match capacities.asked {
        true => files::write_whole(
            &sized,
            serde_json::to_string_pretty(&capacity::report::json(capacities)).expect("JSON"),
        )?,
        false => {
            let _ = fs::remove_file(&sized);
        }
    }
    Ok(Run {
        program,
        rows,
        refused,
        skipped,
        dir,
        summary,
        failures,
    })
}

/// `ACCOUNTS=` and `CAPACITY=`: every variable account type of `program`
/// sized at fixed capacity ([`capacity`]); `Err` where the folder cannot
/// be read.
fn capacities(program: &Program, options: &Options) -> Result<Capacities, String> {
    let held = options
        .accounts
        .as_deref()
        .map(crate::input::accounts::read)
        .transpose()?;
    // An IDL's address that is no address (a test file's placeholder)
    // owns nothing: no account is left out for its owner.
    let address = program
        .address
        .as_deref()
        .and_then(|a| a.parse::<Pubkey>().ok());
    Ok(capacity::size(
        program,
        address,
        held.as_ref(),
        &options.capacities,
    ))
}

/// What built and ran the generated programs: the toolchain, and the
/// versions the generated workspace's lock (`dir`) resolved for pinocchio
/// and each format's crate, anchor-lang as the Anchor workspace's lock
/// resolved it (an Anchor IDL's run), with the harness's mollusk-svm from
/// the main lock.
fn provenance(root: &Path, dir: &Path, elfs: &[Vec<u8>]) -> Provenance {
    let generated = Lock::read_file(&dir.join("Cargo.lock"));
    let anchor = Lock::read_file(&dir.join(generate::ANCHOR1).join("Cargo.lock"));
    let main = Lock::read_file(&root.join("Cargo.lock"));
    let crates = std::iter::once("pinocchio")
        .chain(
            crate::render::AccountCodec::ALL
                .map(|c| crate::render::RowFormat::from(c).crate_name()),
        )
        .filter(|name| *name != "none")
        .filter_map(|name| Some((name.to_string(), generated.version(name)?)))
        .chain(
            anchor
                .version("anchor-lang")
                .map(|v| ("anchor-lang".to_string(), v)),
        )
        .chain(
            main.version("mollusk-svm")
                .map(|v| ("mollusk-svm".to_string(), v)),
        )
        .collect();
    Provenance::of_upstream(root, elfs, crates)
}
