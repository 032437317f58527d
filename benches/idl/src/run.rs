//! `make idl`, stage by stage: read the IDL, resolve its accounts, write
//! and build the programs, measure and check every case, write the report.

use std::{
    collections::BTreeMap,
    fs,
    path::{Path, PathBuf},
};

use benches::{
    exported::{CasesFile, ExportedCase},
    report::{Lock, Provenance},
};

use crate::{
    generate::{self, Built},
    guard,
    input::{self, Assumptions},
    measure::{self, Row},
    model::{self, Program, Site},
    plan::{self, FieldChoices, Plan, PlannedArguments, Skipped},
    render::anchor1::Release,
    report::{self, Refused},
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
}

/// A finished run.
#[derive(Clone, Debug)]
pub struct Run {
    pub program: Program,
    pub rows: Vec<Row>,
    pub refused: Vec<Refused>,
    /// Instructions with no row in a format, and why.
    pub skipped: Vec<Skipped>,
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
    value::refuse_unmeasurable(&mut program, options.lengths);
    let instances = instances(&mut program, options)?;
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
    let mut refused = Vec::new();
    let mut measured = Measured::default();
    for plan in &plans {
        let Plan::Build(planned) = plan else { continue };
        let account = program
            .account(&planned.account)
            .expect("planned from the program's accounts");
        // A borsh account moved to `AccountLoader<T>` holds its fields in
        // the zero-copy layout: its cases are that layout's bytes.
        let account = &*crate::render::anchor1::held(planned.format, account);
        let built =
            generate::build_format(root, &dir, &planned.name, &planned.package, planned.format);
        match built {
            Built::Refused(reason) => {
                progress(&format!("  {}: {reason}", planned.name));
                refused.push(Refused {
                    site: Site::Account,
                    name: planned.account.clone(),
                    format: planned.format,
                    reason,
                });
            }
            Built::Program(so) => {
                guard::stage("measuring", &planned.name);
                let elf = fs::read(&so).map_err(|e| format!("{}: {e}", so.display()))?;
                let instances = &instances[&account.name];
                match guard::caught(|| measure::check(planned, account, &release, &elf, instances))
                {
                    Ok(checked) => {
                        measured.keep(&planned.name, "rows", (root, &so), elf, checked, progress)
                    }
                    Err(reason) => refused.push(Refused {
                        site: Site::Account,
                        name: planned.account.clone(),
                        format: planned.format,
                        reason,
                    }),
                }
            }
        }
    }
    for planned in arguments {
        let Some((planned, so)) =
            build_arguments(root, &dir, &program, planned, &mut skipped, progress)?
        else {
            continue;
        };
        guard::stage("measuring", &planned.name);
        let elf = fs::read(&so).map_err(|e| format!("{}: {e}", so.display()))?;
        let handlers = planned.handlers(&program);
        let checked = match guard::caught(|| {
            measure::arguments::check(planned.format, &handlers, &elf, options.lengths)
        }) {
            Ok(checked) => checked,
            Err(reason) => {
                refuse_all(
                    &mut refused,
                    Site::Instruction,
                    planned.handlers.iter().map(|h| &h.0),
                    planned.format,
                    &reason,
                );
                continue;
            }
        };
        measured.keep(
            &planned.name,
            "instructions",
            (root, &so),
            elf,
            checked,
            progress,
        );
    }
    for planned in events {
        let Some((planned, so)) =
            build_events(root, &dir, &program, planned, &mut skipped, progress)?
        else {
            continue;
        };
        guard::stage("measuring", &planned.name);
        let elf = fs::read(&so).map_err(|e| format!("{}: {e}", so.display()))?;
        let emitters = planned.emitters(&program);
        let checked = match guard::caught(|| {
            measure::events::check(
                planned.format,
                &emitters,
                &elf,
                options.lengths,
                planned.self_cpi,
            )
        }) {
            Ok(checked) => checked,
            Err(reason) => {
                refuse_all(
                    &mut refused,
                    Site::Event,
                    planned.emitters.iter().map(|e| &e.0),
                    planned.format,
                    &reason,
                );
                continue;
            }
        };
        measured.keep(&planned.name, "events", (root, &so), elf, checked, progress);
    }
    let Measured {
        rows,
        failures,
        hostile,
        elfs,
        cases,
    } = measured;
    let provenance = provenance(root, &dir, &elfs);
    let summary = report::summary(
        &program,
        &plans,
        &rows,
        &refused,
        &skipped,
        &provenance,
        &hostile,
    );
    let cases = CasesFile {
        provenance: serde_json::to_value(&provenance).expect("JSON"),
        cases,
    };
    let report = [
        ("summary.md", summary.clone()),
        (
            "results.json",
            report::json(&program, &rows, &refused, &skipped, release.version),
        ),
        ("cases.json", cases.to_text()),
    ];
    for (file, text) in report {
        write_whole(&dir.join(file), &text)?;
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

/// What the measured programs came to, gathered as each is checked.
#[derive(Default)]
struct Measured {
    rows: Vec<Row>,
    failures: Vec<String>,
    hostile: BTreeMap<String, u32>,
    elfs: Vec<Vec<u8>>,
    /// Every row that ran, as `cases.json` exports it.
    cases: Vec<ExportedCase>,
}

impl Measured {
    /// Keeps one program's checks (its `.so` is `elf`, at `so` under the
    /// project's `root`) and says so in a line: `what` its rows are.
    fn keep(
        &mut self,
        program: &str,
        what: &str,
        (root, so): (&Path, &Path),
        elf: Vec<u8>,
        checked: measure::Checked,
        progress: &mut dyn FnMut(&str),
    ) {
        progress(&format!(
            "  {program}: {} {what} checked, {} hostile cases",
            checked.rows.len(),
            checked.hostile.values().sum::<u32>()
        ));
        for (name, count) in checked.hostile {
            *self.hostile.entry(name).or_insert(0) += count;
        }
        let so = so.strip_prefix(root).unwrap_or(so).to_string_lossy();
        self.cases
            .extend(checked.rows.iter().filter_map(|row| row.exported(&so)));
        self.rows.extend(checked.rows);
        self.failures.extend(checked.failures);
        self.elfs.push(elf);
    }
}

/// Writes `text` to `path` whole: into a file of its own, then renamed, so
/// that runs of one IDL at once (the tests) never leave a mix of two.
fn write_whole(path: &Path, text: &str) -> Result<(), String> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let partial = path.with_file_name(format!(
        ".{name}.{}.{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    fs::write(&partial, text)
        .and_then(|()| fs::rename(&partial, path))
        .map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Refuses every item (`names`) of a program whose check panicked (a bug).
fn refuse_all<'a>(
    refused: &mut Vec<Refused>,
    site: Site,
    names: impl Iterator<Item = &'a String>,
    format: crate::render::Format,
    reason: &str,
) {
    for name in names {
        refused.push(Refused {
            site,
            name: name.clone(),
            format,
            reason: reason.to_string(),
        });
    }
}

/// Builds one argument program. A link refused in one instruction's
/// handler or decoder (a stack frame past 4 KiB) takes that instruction
/// out, with the linker's words as its reason, and builds the rest again.
/// A refusal that names no instruction is traced to the handlers that
/// cause it by building halves of the program alone
/// ([`generate::culprits`]): each is taken out by name, the rest built.
/// The built program, or `None` where nothing is left to build.
fn build_arguments(
    root: &Path,
    dir: &Path,
    program: &Program,
    mut planned: PlannedArguments,
    skipped: &mut Vec<Skipped>,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<(PlannedArguments, PathBuf)>, String> {
    loop {
        if !generate::write_arguments(root, dir, program, &mut planned, skipped)? {
            return Ok(None);
        }
        guard::stage("building", &planned.name);
        let built =
            generate::build_format(root, dir, &planned.name, &planned.package, planned.format);
        let reason = match built {
            Built::Program(so) => return Ok(Some((planned, so))),
            Built::Refused(reason) => reason,
        };
        let named = planned
            .handlers(program)
            .iter()
            .position(|h| crate::render::arguments::named_in(h.instruction, &reason));
        let found = match named {
            Some(i) => vec![(i, reason)],
            None => {
                progress(&format!(
                    "  {}: {reason}; building parts of it alone to find the instructions that cause it",
                    planned.name
                ));
                let probe = Probe::new(&planned.name, &planned.package, planned.format);
                let found = probe.culprits(root, dir, planned.handlers.len(), reason, |some| {
                    let mut part = planned.clone();
                    part.handlers = some.iter().map(|i| planned.handlers[*i].clone()).collect();
                    (part.name, part.package) = (probe.name.clone(), probe.package.clone());
                    generate::write_arguments(root, dir, program, &mut part, &mut Vec::new())
                });
                found
                    .into_iter()
                    .map(|(i, reason)| {
                        let ix = planned.handlers(program)[i].instruction;
                        (i, format!("{reason}{}", by_value(&ix.args)))
                    })
                    .collect()
            }
        };
        for (i, reason) in &found {
            progress(&format!(
                "  {}: `{}`: {reason}",
                planned.name, planned.handlers[*i].0
            ));
        }
        let format = planned.format;
        generate::take_out(
            &mut planned.handlers,
            found,
            |(name, _, _), reason| Skipped {
                site: Site::Instruction,
                name: name.clone(),
                format,
                reason,
            },
            skipped,
        );
        if !planned.handlers.iter().any(|(_, _, measured)| *measured) {
            return Ok(None);
        }
    }
}

/// What a refused frame likely holds: the arguments, decoded by value,
/// where they are 4 KiB or more.
fn by_value(args: &model::Struct) -> String {
    match crate::layout::struct_layout(args, false) {
        Ok(layout) if layout.layout.size >= 4096 => format!(
            ", where its handler was inlined: its arguments are {} bytes decoded, on the stack (a `Box` or zero-copy account would move them off it)",
            benches::report::answer::thousands(layout.layout.size as u64)
        ),
        _ => String::new(),
    }
}

/// Builds one event program; a refusal is traced to the events that cause
/// it as [`build_arguments`] traces instructions.
fn build_events(
    root: &Path,
    dir: &Path,
    program: &Program,
    mut planned: plan::PlannedEvents,
    skipped: &mut Vec<Skipped>,
    progress: &mut dyn FnMut(&str),
) -> Result<Option<(plan::PlannedEvents, PathBuf)>, String> {
    loop {
        if !generate::write_events(root, dir, program, &mut planned, skipped)? {
            return Ok(None);
        }
        guard::stage("building", &planned.name);
        let built =
            generate::build_format(root, dir, &planned.name, &planned.package, planned.format);
        let reason = match built {
            Built::Program(so) => return Ok(Some((planned, so))),
            Built::Refused(reason) => reason,
        };
        progress(&format!(
            "  {}: {reason}; building parts of it alone to find the events that cause it",
            planned.name
        ));
        let probe = Probe::new(&planned.name, &planned.package, planned.format);
        let found = probe.culprits(root, dir, planned.emitters.len(), reason, |some| {
            let mut part = planned.clone();
            part.emitters = some.iter().map(|i| planned.emitters[*i].clone()).collect();
            (part.name, part.package) = (probe.name.clone(), probe.package.clone());
            generate::write_events(root, dir, program, &mut part, &mut Vec::new())
        });
        let format = planned.format;
        generate::take_out(
            &mut planned.emitters,
            found,
            |(name, _), reason| Skipped {
                site: Site::Event,
                name: name.clone(),
                format,
                reason,
            },
            skipped,
        );
        if !planned.emitters.iter().any(|(_, measured)| *measured) {
            return Ok(None);
        }
    }
}

/// A crate that holds part of a refused program while its culprits are
/// found; removed after.
struct Probe {
    name: String,
    package: String,
    format: crate::render::Format,
}

impl Probe {
    fn new(name: &str, package: &str, format: crate::render::Format) -> Self {
        Self {
            name: format!("{name}_probe"),
            package: format!("{package}-probe"),
            format,
        }
    }

    /// The items (of `count`) that cause `reason`, found by building parts
    /// of the program alone in this crate: `write` writes the part of the
    /// items given (`false` where it has none left). The crate is removed
    /// after.
    fn culprits(
        &self,
        root: &Path,
        dir: &Path,
        count: usize,
        reason: String,
        mut write: impl FnMut(&[usize]) -> Result<bool, String>,
    ) -> Vec<(usize, String)> {
        let all: Vec<usize> = (0..count).collect();
        let found = generate::culprits(&all, reason, &mut |some| {
            if !write(some)? {
                return Err(guard::bug("no part of it renders"));
            }
            match generate::build_format(root, dir, &self.name, &self.package, self.format) {
                Built::Program(_) => Ok(()),
                Built::Refused(reason) => Err(reason),
            }
        });
        self.remove(dir);
        found
    }

    fn remove(&self, dir: &Path) {
        let workspace = if self.format.is_anchor1() {
            dir.join(generate::ANCHOR1)
        } else {
            dir.to_path_buf()
        };
        let _ = fs::remove_dir_all(workspace.join("programs").join(&self.name));
        for ext in ["so", "refused"] {
            let _ = fs::remove_file(dir.join("deploy").join(format!("{}.{ext}", self.name)));
        }
    }
}

/// Each account's instances: its bytes from `DATA=` where there is a file,
/// decoded with the model (every decode error named, with its byte), else
/// the generated ones.
fn instances(
    program: &mut Program,
    options: &Options,
) -> Result<BTreeMap<String, Vec<measure::Instance>>, String> {
    let mut all = BTreeMap::new();
    let mut errors = Vec::new();
    for entry in program.accounts.iter_mut() {
        let Ok(account) = entry else { continue };
        guard::stage("generating instances", &account.name);
        let real = match &options.data {
            Some(dir) => input::account_data(dir, &account.name)?,
            None => None,
        };
        let instances = match real {
            Some((file, bytes)) => match value::decode_account(account, &bytes) {
                // A legacy account assumed borsh whose data is exactly its
                // zero-copy layout's length, which is not borsh's: it was
                // read with the wrong layout.
                Ok((_, tail))
                    if !tail.is_empty() && !zero_copy_hint(account, bytes.len()).is_empty() =>
                {
                    errors.push(format!(
                        "{file}: account `{}` is {} bytes, its zero-copy layout's size, not borsh's ({}){}",
                        account.name,
                        bytes.len(),
                        bytes.len() - tail.len(),
                        zero_copy_hint(account, bytes.len())
                    ));
                    continue;
                }
                Ok((record, tail)) => vec![measure::Instance {
                    name: "data",
                    record,
                    tail,
                }],
                Err(e) => {
                    errors.push(format!(
                        "{file}: account `{}` does not decode at byte {}: {}{}",
                        account.name,
                        e.at,
                        e.what,
                        zero_copy_hint(account, bytes.len())
                    ));
                    continue;
                }
            },
            None => match guard::caught(|| measure::generated(account, options.lengths)) {
                Ok(generated) => generated,
                Err(reason) => {
                    *entry = Err(model::Unsupported {
                        name: account.name.clone(),
                        reason,
                    });
                    continue;
                }
            },
        };
        all.insert(account.name.clone(), instances);
    }
    if errors.is_empty() {
        Ok(all)
    } else {
        Err(format!(
            "DATA: {} (is it this IDL's account, at the version the IDL describes?)",
            errors.join("; ")
        ))
    }
}

/// Where a legacy IDL's account was assumed borsh and its data has exactly
/// the length of its zero-copy layout: the likely cause, and what to say.
fn zero_copy_hint(account: &model::Account, len: usize) -> String {
    let as_zero_copy = model::Account {
        kind: model::Kind::ZeroCopy { packed: false },
        ..account.clone()
    };
    let fits = crate::layout::account_len(&as_zero_copy).ok().flatten() == Some(len);
    if account.assumed && account.kind == model::Kind::Borsh && fits {
        format!(
            " ({len} bytes is its zero-copy layout's size: if `{0}` is `#[account(zero_copy)]`, say ZERO_COPY={0})",
            account.name
        )
    } else {
        String::new()
    }
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
        .chain(crate::render::Format::ALL.iter().map(|f| f.crate_name()))
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
