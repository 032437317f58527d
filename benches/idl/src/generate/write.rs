//! Writing: each planned program's crate (manifest and `src/lib.rs`) in
//! the IDL's generated workspace, a file rewritten only where its text
//! changed (so cargo rebuilds only what did), the crates no longer planned
//! removed. A rendering that panics takes out its item, not the program.

use std::{
    fs,
    path::{Path, PathBuf},
};

use super::bisect::{culprits, take_out};
use crate::{
    guard,
    model::Site,
    model::{Program, Struct},
    plan::{
        NoRow, Plan, Planned, PlannedArguments, PlannedEvents, PlannedItem, PlannedProgram,
        account, is_anchor,
    },
    render::{
        self, AccountFormat, ArgumentFormat, EventFormat, RowFormat, Target,
        anchor1::Release,
        arguments::{self, Handler, Placement},
        events::{self, Emitter},
    },
};

/// Where a program's generated workspace lives.
pub fn out_dir(root: &Path, program: &str) -> PathBuf {
    root.join("target/benches/idl").join(render::snake(program))
}

/// Renders `planned`'s source with `render` (given the indexes of the
/// items it holds). An item whose rendering panics (a bug in the generator)
/// is taken out, with the panic as its reason in `skipped`, until the rest
/// renders; `None` once `left` says nothing is left to write.
fn render_taking_out<F: Copy + Into<RowFormat>, D>(
    planned: &mut PlannedProgram<F, D>,
    site: Site,
    skipped: &mut Vec<NoRow>,
    left: fn(&[PlannedItem<D>]) -> bool,
    render: impl Fn(&[usize], &PlannedProgram<F, D>) -> Result<String, String>,
) -> Option<String> {
    loop {
        let all: Vec<usize> = (0..planned.items.len()).collect();
        let reason = match render(&all, planned) {
            Ok(lib) => return Some(lib),
            Err(reason) => reason,
        };
        let found = culprits(&all, reason, &mut |parts| {
            let rendered = parts.iter().map(|some| render(some, planned).map(drop));
            rendered.collect()
        });
        let format = planned.format.into();
        take_out(
            &mut planned.items,
            found,
            |item, reason| NoRow {
                site,
                name: item.name.clone(),
                format,
                reason,
                found: None,
            },
            skipped,
        );
        if !left(&planned.items) {
            return None;
        }
    }
}

/// Writes one argument program's crate; a handler whose rendering panics
/// is taken out ([`render_taking_out`]); `false` where none is left.
pub fn write_arguments(
    root: &Path,
    dir: &Path,
    program: &Program,
    planned: &mut PlannedArguments,
    skipped: &mut Vec<NoRow>,
) -> Result<bool, String> {
    write_arguments_placed(root, dir, program, planned, skipped, Placement::AsCompiled)
}

/// [`write_arguments`], a pinocchio program's handlers placed as
/// `placement` says (Anchor's are Anchor's).
pub fn write_arguments_placed(
    root: &Path,
    dir: &Path,
    program: &Program,
    planned: &mut PlannedArguments,
    skipped: &mut Vec<NoRow>,
    placement: Placement,
) -> Result<bool, String> {
    let render = |handlers: &[usize], planned: &PlannedArguments| {
        guard::caught(|| {
            let all = planned.handlers(program);
            let chosen: Vec<Handler> = handlers.iter().map(|i| all[*i].clone()).collect();
            match planned.format {
                ArgumentFormat::Pinocchio(codec) => {
                    let (name, path) = (&program.name, &program.path);
                    arguments::placed(name, path, &chosen, codec, placement)
                }
                format => arguments_source(program, &chosen, format),
            }
        })
    };
    // A handler the format cannot decode is still written (walked).
    let any = |items: &[PlannedItem<_>]| !items.is_empty();
    let Some(lib) = render_taking_out(planned, Site::Instruction, skipped, any, render) else {
        return Ok(false);
    };
    let ArgumentFormat::Pinocchio(codec) = planned.format else {
        write_anchor1_crate(dir, &planned.name, &planned.package, planned.format, &lib)?;
        return Ok(true);
    };
    let handlers = planned.handlers(program);
    let roots: Vec<&Struct> = handlers.iter().map(|h| &h.instruction.args).collect();
    write_crate(
        dir,
        &planned.name,
        &render::manifest(
            &planned.package,
            codec.serializer(),
            &root.join("common").to_string_lossy(),
            render::holds_hash_maps(&roots, codec.serializer()),
        ),
        &lib,
    )?;
    Ok(true)
}

/// Writes one event program's crate; an emitter whose rendering panics is
/// taken out ([`render_taking_out`]); `false` where no measured one is left.
pub fn write_events(
    root: &Path,
    dir: &Path,
    program: &Program,
    planned: &mut PlannedEvents,
    skipped: &mut Vec<NoRow>,
) -> Result<bool, String> {
    let render = |emitters: &[usize], planned: &PlannedEvents| {
        guard::caught(|| {
            let all = planned.emitters(program);
            let chosen: Vec<Emitter> = emitters.iter().map(|i| all[*i].clone()).collect();
            events_source(program, &chosen, planned.format, planned.self_cpi())
        })
    };
    let measured = |items: &[PlannedItem]| items.iter().any(|e| e.measured);
    let Some(lib) = render_taking_out(planned, Site::Event, skipped, measured, render) else {
        return Ok(false);
    };
    let EventFormat::Pinocchio(codec) = planned.format else {
        write_anchor1_crate(dir, &planned.name, &planned.package, planned.format, &lib)?;
        return Ok(true);
    };
    write_crate(
        dir,
        &planned.name,
        &events::manifest(
            &planned.package,
            codec,
            &root.join("common").to_string_lossy(),
        ),
        &lib,
    )?;
    Ok(true)
}

/// The main lockfile as the generated workspace's first: the families'
/// versions, less every `hashbrown` but the one a generated program pins
/// (`render::HASHBROWN`). borsh's `hashbrown` feature accepts 0.11 to 0.15
/// and cargo prefers a version its lock already holds: the main lock's
/// 0.13.2 (the host's `ark-*` crates') would win the first build, and its
/// default `ahash` does not build on SBF (`once_cell` needs atomics the
/// target lacks), while a later build, its lock rewritten without 0.13.2,
/// would take 0.15.5. Without the others, every build takes the pinned one.
fn generated_lock(main: &str) -> String {
    let mut blocks = main.split("\n[[package]]\n");
    let mut out = blocks.next().unwrap_or_default().to_string();
    for block in blocks {
        let other_hashbrown = block.starts_with("name = \"hashbrown\"\n")
            && !block.contains(&format!("version = \"{}\"", render::HASHBROWN));
        if !other_hashbrown {
            out.push_str("\n[[package]]\n");
            out.push_str(block);
        }
    }
    out
}

/// Writes the workspace and every planned crate; a file whose text did not
/// change is left alone, so a second run rebuilds nothing. A program whose
/// rendering panics (a bug) is not written: an account's plan becomes a
/// skip with the panic as its reason; a handler or emitter is taken out
/// into `skipped` (and a program left with none is dropped).
pub fn write(
    root: &Path,
    program: &Program,
    release: &Release,
    plans: &mut [Plan],
    arguments: &mut Vec<PlannedArguments>,
    events: &mut Vec<PlannedEvents>,
    skipped: &mut Vec<NoRow>,
) -> Result<PathBuf, String> {
    let dir = out_dir(root, &program.name);
    let programs = dir.join("programs");
    fs::create_dir_all(&programs).map_err(|e| format!("creating {}: {e}", programs.display()))?;
    if is_anchor(program) {
        write_anchor1_workspace(root, &dir, release)?;
    }
    write_if_changed(&dir.join("Cargo.toml"), &render::workspace_manifest())?;
    // The main workspace's lockfile: the same crate versions as the families.
    let lock =
        fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("Cargo.lock: {e}"))?;
    if !dir.join("Cargo.lock").exists() {
        write_if_changed(&dir.join("Cargo.lock"), &generated_lock(&lock))?;
    }
    let common = root.join("common");
    let mut wanted = Vec::new();
    let mut anchor1_wanted = Vec::new();
    for plan in plans.iter_mut() {
        let Plan::Build(planned) = plan else { continue };
        guard::stage("rendering", &planned.name);
        let account = render::anchor1::held(planned.format, account(program, &planned.account));
        let target = Target {
            program: &program.name,
            source: &program.path,
            account: &account,
            index: planned.index,
            read: planned.read.clone(),
            update: planned.update.clone(),
        };
        let lib = match guard::caught(|| source(&target, planned)) {
            Ok(lib) => lib,
            Err(reason) => {
                *plan = Plan::Skip {
                    account: planned.account.clone(),
                    format: planned.format.into(),
                    reason,
                };
                continue;
            }
        };
        let AccountFormat::Pinocchio(codec) = planned.format else {
            let (name, package) = (&planned.name, &planned.package);
            write_anchor1_crate(&dir, name, package, planned.format, &lib)?;
            anchor1_wanted.push(planned.name.clone());
            continue;
        };
        write_crate(
            &dir,
            &planned.name,
            &render::manifest(
                &planned.package,
                codec.serializer(),
                &common.to_string_lossy(),
                render::holds_hash_maps(&[&account.record], codec.serializer()),
            ),
            &lib,
        )?;
        wanted.push(planned.name.clone());
    }
    let mut kept = Vec::new();
    for mut planned in std::mem::take(arguments) {
        guard::stage("rendering", &planned.name);
        if write_arguments(root, &dir, program, &mut planned, skipped)? {
            wanted_in(planned.format.into(), &mut wanted, &mut anchor1_wanted)
                .push(planned.name.clone());
            kept.push(planned);
        }
    }
    *arguments = kept;
    let mut kept = Vec::new();
    for mut planned in std::mem::take(events) {
        guard::stage("rendering", &planned.name);
        if write_events(root, &dir, program, &mut planned, skipped)? {
            wanted_in(planned.format.into(), &mut wanted, &mut anchor1_wanted)
                .push(planned.name.clone());
            kept.push(planned);
        }
    }
    *events = kept;
    remove_unplanned(&programs, &wanted)?;
    remove_unplanned(&dir.join(ANCHOR1).join("programs"), &anchor1_wanted)?;
    Ok(dir)
}

/// The `src/lib.rs` of `planned` (`target` its account): a pinocchio
/// format's, or an Anchor 1.x program's at the key the harness loads it at.
pub fn source(target: &Target, planned: &Planned) -> String {
    match planned.format {
        AccountFormat::Anchor1(wrapper) => {
            let id = crate::plan::program_id(&planned.name).to_string();
            render::anchor1::program(target, wrapper, &id)
        }
        AccountFormat::Pinocchio(codec) => render::program(target, codec),
    }
}

/// The list of crates wanted in `format`'s workspace: the pinocchio
/// programs' (`pinocchio`), or the Anchor 1.x ones' (`anchor1`).
fn wanted_in<'a>(
    format: RowFormat,
    pinocchio: &'a mut Vec<String>,
    anchor1: &'a mut Vec<String>,
) -> &'a mut Vec<String> {
    if format.is_anchor1() {
        anchor1
    } else {
        pinocchio
    }
}

/// The `src/lib.rs` of the argument program of `format` holding
/// `handlers`: a pinocchio format's, or the Anchor 1.x program's at the
/// address the harness loads it at.
pub fn arguments_source(program: &Program, handlers: &[Handler], format: ArgumentFormat) -> String {
    match format {
        ArgumentFormat::Anchor1 => {
            let id = crate::plan::arguments_program_id(format.into()).to_string();
            render::anchor1::instructions::program(&program.name, &program.path, handlers, &id)
        }
        ArgumentFormat::Pinocchio(codec) => {
            arguments::program(&program.name, &program.path, handlers, codec)
        }
    }
}

/// The `src/lib.rs` of the event program of `format` holding `emitters`
/// (`self_cpi`: an `emit_cpi` program's address and event authority).
pub fn events_source(
    program: &Program,
    emitters: &[Emitter],
    format: EventFormat,
    self_cpi: Option<events::SelfCpi>,
) -> String {
    match format {
        EventFormat::Anchor1(what) => {
            let id = crate::plan::events_program_id(format.into(), self_cpi).to_string();
            render::anchor1::events::program(&program.name, &program.path, emitters, what, &id)
        }
        EventFormat::Pinocchio(codec) => {
            events::program(&program.name, &program.path, emitters, codec, self_cpi)
        }
    }
}

/// A crate from an earlier run that is not planned now would stay a
/// member of its workspace: removes every folder of `programs` not in
/// `wanted`.
fn remove_unplanned(programs: &Path, wanted: &[String]) -> Result<(), String> {
    let Ok(entries) = fs::read_dir(programs) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !wanted.contains(&name) {
            fs::remove_dir_all(entry.path()).map_err(|e| format!("removing {name}: {e}"))?;
        }
    }
    Ok(())
}

/// The Anchor 1.x programs' workspace, under a run's folder.
pub const ANCHOR1: &str = "anchor1";

/// Writes the run's Anchor workspace (`anchor1/`): its manifest for
/// `release`, `programs/anchor1/records` copied in, and the release's
/// committed lockfile (`programs/anchor1/`'s for the pinned one) where the
/// workspace has none or its manifest changed, so the programs build with
/// the versions `make all` or `make anchor-versions` built with. Files are
/// rewritten only where they differ: a second run rebuilds nothing, and a
/// run with another release rebuilds every Anchor program.
fn write_anchor1_workspace(root: &Path, dir: &Path, release: &Release) -> Result<(), String> {
    let workspace = dir.join(ANCHOR1);
    let records = workspace.join("records");
    fs::create_dir_all(records.join("src"))
        .map_err(|e| format!("creating {}: {e}", records.display()))?;
    let source = root.join("programs/anchor1/records");
    for file in ["Cargo.toml", "src/lib.rs"] {
        let text = fs::read_to_string(source.join(file))
            .map_err(|e| format!("programs/anchor1/records/{file}: {e}"))?;
        write_if_changed(&records.join(file), &text)?;
        // With the pinned release the copy is the crate `make all` built.
        benches::files::keep_modified(&source.join(file), &records.join(file))?;
    }
    let manifest = render::anchor1::workspace_manifest(release);
    let path = workspace.join("Cargo.toml");
    let changed = fs::read_to_string(&path).map_or(true, |old| old != manifest);
    write_if_changed(&path, &manifest)?;
    if changed || !workspace.join("Cargo.lock").exists() {
        let committed = benches::frameworks::anchor1::releases::committed_lock(root, release);
        let lock =
            fs::read_to_string(&committed).map_err(|e| format!("{}: {e}", committed.display()))?;
        write_if_changed(&workspace.join("Cargo.lock"), &lock)?;
    }
    Ok(())
}

/// Writes one Anchor crate into the run's Anchor workspace (`anchor1/`).
fn write_anchor1_crate(
    dir: &Path,
    name: &str,
    package: &str,
    format: impl Into<RowFormat>,
    lib: &str,
) -> Result<(), String> {
    write_crate(
        &dir.join(ANCHOR1),
        name,
        &render::anchor1::manifest(package, format.into()),
        lib,
    )
}

/// Writes one generated crate, `programs/<name>/`: its manifest and its
/// `src/lib.rs`.
fn write_crate(dir: &Path, name: &str, manifest: &str, lib: &str) -> Result<(), String> {
    let crate_dir = dir.join("programs").join(name);
    fs::create_dir_all(crate_dir.join("src"))
        .map_err(|e| format!("creating {}: {e}", crate_dir.display()))?;
    write_if_changed(&crate_dir.join("Cargo.toml"), manifest)?;
    write_if_changed(&crate_dir.join("src/lib.rs"), lib)
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    fs::write(path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}
