//! Writes the generated programs of one IDL into a cargo workspace of their
//! own under `target/benches/idl/<program>/`, one crate per account type and
//! format, and builds each with its own cargo invocation (a link refused
//! for one cannot hide another), as `make programs` builds the families.

use std::{
    fs,
    path::{Path, PathBuf},
    time::Instant,
};

use crate::{
    guard,
    model::Site,
    model::{Program, Struct},
    plan::{Plan, Planned, PlannedArguments, PlannedEvents, Skipped, account, is_anchor},
    render::{
        self, Format, Target,
        anchor1::Release,
        arguments::{self, Handler},
        events::{self, Emitter},
    },
};

/// Where a program's generated workspace lives.
pub fn out_dir(root: &Path, program: &str) -> PathBuf {
    root.join("target/benches/idl").join(render::snake(program))
}

/// Writes one argument program's crate (for `planned.handlers`). A handler
/// whose rendering panics (a bug in the generator) is taken out, with the
/// panic as its reason in `skipped`; `false` where none is left.
pub fn write_arguments(
    root: &Path,
    dir: &Path,
    program: &Program,
    planned: &mut PlannedArguments,
    skipped: &mut Vec<Skipped>,
) -> Result<bool, String> {
    let render = |handlers: &[usize], planned: &PlannedArguments| {
        guard::caught(|| {
            let all = planned.handlers(program);
            let chosen: Vec<Handler> = handlers.iter().map(|i| all[*i].clone()).collect();
            arguments_source(program, &chosen, planned.format)
        })
    };
    let lib = loop {
        let all: Vec<usize> = (0..planned.handlers.len()).collect();
        match render(&all, planned) {
            Ok(lib) => break lib,
            Err(reason) => {
                let found = culprits(&all, reason, &mut |some| render(some, planned).map(drop));
                take_out(
                    &mut planned.handlers,
                    found,
                    |(name, _, _), reason| Skipped {
                        site: Site::Instruction,
                        name: name.clone(),
                        format: planned.format,
                        reason,
                    },
                    skipped,
                );
                if planned.handlers.is_empty() {
                    return Ok(false);
                }
            }
        }
    };
    if planned.format.is_anchor1() {
        write_anchor1_crate(dir, &planned.name, &planned.package, planned.format, &lib)?;
        return Ok(true);
    }
    let handlers = planned.handlers(program);
    let roots: Vec<&Struct> = handlers.iter().map(|h| &h.instruction.args).collect();
    write_crate(
        dir,
        &planned.name,
        &render::manifest(
            &planned.package,
            planned.format,
            &root.join("common").to_string_lossy(),
            render::holds_hash_maps(&roots, planned.format),
        ),
        &lib,
    )?;
    Ok(true)
}

/// The items among `items` (indices) that cannot be made, each with its
/// reason, found by halving: `attempt` tries a program of the items given.
/// `reason` is why all of `items` together could not be made. Where every
/// part can be made alone and only the whole cannot, each item gets the
/// whole's reason.
pub fn culprits(
    items: &[usize],
    reason: String,
    attempt: &mut dyn FnMut(&[usize]) -> Result<(), String>,
) -> Vec<(usize, String)> {
    if items.len() <= 1 {
        return items.iter().map(|i| (*i, reason.clone())).collect();
    }
    let (first, second) = items.split_at(items.len() / 2);
    let mut found = Vec::new();
    for half in [first, second] {
        if let Err(why) = attempt(half) {
            found.extend(culprits(half, why, attempt));
        }
    }
    if found.is_empty() {
        return items.iter().map(|i| (*i, reason.clone())).collect();
    }
    found
}

/// Removes the `found` items (indices into `items`) from `items`, each
/// recorded as `skip` makes it.
pub fn take_out<T>(
    items: &mut Vec<T>,
    mut found: Vec<(usize, String)>,
    skip: impl Fn(&T, String) -> Skipped,
    skipped: &mut Vec<Skipped>,
) {
    found.sort_by_key(|(i, _)| std::cmp::Reverse(*i));
    for (i, reason) in found {
        skipped.push(skip(&items[i], reason));
        items.remove(i);
    }
}

/// Writes one event program's crate. An emitter whose rendering panics
/// is taken out, as [`write_arguments`] takes out a handler; `false` where
/// none is left.
pub fn write_events(
    root: &Path,
    dir: &Path,
    program: &Program,
    planned: &mut PlannedEvents,
    skipped: &mut Vec<Skipped>,
) -> Result<bool, String> {
    let render = |emitters: &[usize], planned: &PlannedEvents| {
        guard::caught(|| {
            let all = planned.emitters(program);
            let chosen: Vec<Emitter> = emitters.iter().map(|i| all[*i].clone()).collect();
            events_source(program, &chosen, planned.format, planned.self_cpi)
        })
    };
    let lib = loop {
        let all: Vec<usize> = (0..planned.emitters.len()).collect();
        match render(&all, planned) {
            Ok(lib) => break lib,
            Err(reason) => {
                let found = culprits(&all, reason, &mut |some| render(some, planned).map(drop));
                take_out(
                    &mut planned.emitters,
                    found,
                    |(name, _), reason| Skipped {
                        site: Site::Event,
                        name: name.clone(),
                        format: planned.format,
                        reason,
                    },
                    skipped,
                );
                if !planned.emitters.iter().any(|(_, measured)| *measured) {
                    return Ok(false);
                }
            }
        }
    };
    if planned.format.is_anchor1() {
        write_anchor1_crate(dir, &planned.name, &planned.package, planned.format, &lib)?;
        return Ok(true);
    }
    write_crate(
        dir,
        &planned.name,
        &events::manifest(
            &planned.package,
            planned.format,
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
    skipped: &mut Vec<Skipped>,
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
                    format: planned.format,
                    reason,
                };
                continue;
            }
        };
        if planned.format.is_anchor1() {
            let (name, package) = (&planned.name, &planned.package);
            write_anchor1_crate(&dir, name, package, planned.format, &lib)?;
            anchor1_wanted.push(planned.name.clone());
            continue;
        }
        write_crate(
            &dir,
            &planned.name,
            &render::manifest(
                &planned.package,
                planned.format,
                &common.to_string_lossy(),
                render::holds_hash_maps(&[&account.record], planned.format),
            ),
            &lib,
        )?;
        wanted.push(planned.name.clone());
    }
    let mut kept = Vec::new();
    for mut planned in std::mem::take(arguments) {
        guard::stage("rendering", &planned.name);
        if write_arguments(root, &dir, program, &mut planned, skipped)? {
            wanted_in(planned.format, &mut wanted, &mut anchor1_wanted).push(planned.name.clone());
            kept.push(planned);
        }
    }
    *arguments = kept;
    let mut kept = Vec::new();
    for mut planned in std::mem::take(events) {
        guard::stage("rendering", &planned.name);
        if write_events(root, &dir, program, &mut planned, skipped)? {
            wanted_in(planned.format, &mut wanted, &mut anchor1_wanted).push(planned.name.clone());
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
    if planned.format.framework() == "anchor1" {
        let id = crate::plan::program_id(&planned.name).to_string();
        render::anchor1::program(target, planned.format, &id)
    } else {
        render::program(target, planned.format)
    }
}

/// The list of crates wanted in `format`'s workspace: the pinocchio
/// programs' (`pinocchio`), or the Anchor 1.x ones' (`anchor1`).
fn wanted_in<'a>(
    format: Format,
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
pub fn arguments_source(program: &Program, handlers: &[Handler], format: Format) -> String {
    if format.is_anchor1() {
        let id = crate::plan::arguments_program_id(format).to_string();
        render::anchor1::instructions::program(&program.name, &program.path, handlers, &id)
    } else {
        arguments::program(&program.name, &program.path, handlers, format)
    }
}

/// The `src/lib.rs` of the event program of `format` holding `emitters`
/// (`self_cpi`: an `emit_cpi` program's address and event authority).
pub fn events_source(
    program: &Program,
    emitters: &[Emitter],
    format: Format,
    self_cpi: Option<events::SelfCpi>,
) -> String {
    if format.is_anchor1() {
        let id = crate::plan::events_program_id(format, self_cpi).to_string();
        render::anchor1::events::program(&program.name, &program.path, emitters, format, &id)
    } else {
        events::program(&program.name, &program.path, emitters, format, self_cpi)
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
    }
    let manifest = render::anchor1::workspace_manifest(release);
    let path = workspace.join("Cargo.toml");
    let changed = fs::read_to_string(&path).map_or(true, |old| old != manifest);
    write_if_changed(&path, &manifest)?;
    if changed || !workspace.join("Cargo.lock").exists() {
        let committed = benches::anchor_versions::prepare::committed_lock(root, release);
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
    format: Format,
    lib: &str,
) -> Result<(), String> {
    write_crate(
        &dir.join(ANCHOR1),
        name,
        &render::anchor1::manifest(package, format),
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

/// What building one crate came to.
#[derive(Clone, Debug)]
pub enum Built {
    /// The `.so`, copied to `deploy/<name>.so`.
    Program(PathBuf),
    /// The compiler or the linker refused it (a stack frame past 4 KiB is
    /// refused at link time): a measured outcome, with its words.
    Refused(String),
}

/// Builds one planned crate with the project's toolchain (the repository's
/// `.cargo/config.toml`), its output appended to `build.log`. A `.so` (or
/// a recorded refusal) newer than everything it is built from is reused:
/// a second run with nothing changed builds nothing.
pub fn build(root: &Path, dir: &Path, name: &str, package: &str) -> Built {
    let inputs = [
        dir.join("Cargo.toml"),
        root.join("common/src"),
        root.join("common/Cargo.toml"),
    ];
    reuse_or(root, dir, dir, name, &inputs, || {
        compile(root, dir, name, package, Route::Core)
    })
}

/// Builds one planned crate of `format`: in the run's pinocchio workspace
/// ([`build`]) or its Anchor one ([`build_anchor1`]).
pub fn build_format(root: &Path, dir: &Path, name: &str, package: &str, format: Format) -> Built {
    if format.is_anchor1() {
        build_anchor1(root, dir, name, package)
    } else {
        build(root, dir, name, package)
    }
}

/// Builds one Anchor 1.x crate of the run's Anchor workspace as
/// `make all` builds `programs/anchor1/` (the std target, std's patched
/// sources), reused as [`build`]'s are.
pub fn build_anchor1(root: &Path, dir: &Path, name: &str, package: &str) -> Built {
    let workspace = dir.join(ANCHOR1);
    let inputs = [
        workspace.join("Cargo.toml"),
        root.join("benches/std/bpfel-solana.json"),
    ];
    reuse_or(root, dir, &workspace, name, &inputs, || {
        compile(root, &workspace, name, package, Route::Std)
    })
}

/// The `.so` in `dir`'s `deploy/` (or its recorded refusal) where it is
/// newer than the crate in `workspace`, the toolchain's files and
/// `inputs`; else what `compile` builds.
fn reuse_or(
    root: &Path,
    dir: &Path,
    workspace: &Path,
    name: &str,
    inputs: &[PathBuf],
    compile: impl FnOnce() -> Built,
) -> Built {
    let so = dir.join("deploy").join(format!("{name}.so"));
    let refused = so.with_extension("refused");
    let mut paths = vec![
        workspace.join("programs").join(name),
        root.join(".cargo"),
        root.join("rust-toolchain.toml"),
    ];
    paths.extend_from_slice(inputs);
    let inputs = newest(&paths);
    if modified(&so).is_some_and(|built| built > inputs) {
        return Built::Program(so);
    }
    if modified(&refused).is_some_and(|when| when > inputs)
        && let Ok(reason) = fs::read_to_string(&refused)
    {
        return Built::Refused(reason);
    }
    let built = compile();
    let _ = fs::remove_file(&refused);
    if let Built::Refused(reason) = &built {
        let _ = fs::create_dir_all(dir.join("deploy"));
        let _ = fs::write(&refused, reason);
    }
    built
}

/// How a crate is built: for `bpfel-unknown-none` with core and alloc (the
/// generated pinocchio programs), or for the std target with std (Anchor
/// 1.x's, as benches/build-programs.sh builds `programs/anchor1/`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    Core,
    Std,
}

fn modified(path: &Path) -> Option<std::time::SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The newest modification time of the files under `paths`.
fn newest(paths: &[PathBuf]) -> std::time::SystemTime {
    let mut newest = std::time::SystemTime::UNIX_EPOCH;
    let mut stack: Vec<PathBuf> = paths.to_vec();
    while let Some(path) = stack.pop() {
        if let Ok(entries) = fs::read_dir(&path) {
            stack.extend(entries.flatten().map(|e| e.path()));
        } else if let Some(when) = modified(&path) {
            newest = newest.max(when);
        }
    }
    newest
}

/// Builds `package` of the workspace in `workspace`, the `.so` copied to
/// the run's `deploy/<name>.so` (the run's folder is the workspace's, or
/// its parent for the Anchor workspace).
fn compile(root: &Path, workspace: &Path, name: &str, package: &str, route: Route) -> Built {
    let started = Instant::now();
    let mut command = benches::reproducible::cargo_build(root);
    let (target_dir, triple) = match route {
        Route::Core => {
            command.args(["-Z", "build-std=core,alloc", "--release"]);
            command.args(["--target", "bpfel-unknown-none"]);
            (root.join("target/idl-build"), "bpfel-unknown-none")
        }
        Route::Std => {
            // Where -Zbuild-std reads std's patched sources (make setup).
            let sources =
                fs::read_to_string(root.join(".tools/std/source-root")).unwrap_or_default();
            command.env("__CARGO_TESTS_ONLY_SRC_ROOT", sources.trim());
            command.args(["-Zjson-target-spec", "-Zbuild-std=std,panic_abort"]);
            command.args(["-Zbuild-std-features=", "--release", "--target"]);
            command.arg(root.join("benches/std/bpfel-solana.json"));
            (root.join("target/idl-build-anchor1"), "bpfel-solana")
        }
    };
    let output = command
        .env("CARGO_TARGET_DIR", &target_dir)
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .args(["-p", package])
        .output();
    let output = match output {
        Ok(output) => output,
        Err(e) => return Built::Refused(format!("cargo did not start: {e}")),
    };
    let dir = if route == Route::Std {
        workspace.parent().unwrap_or(workspace)
    } else {
        workspace
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    let log = dir.join("build.log");
    let previous = fs::read_to_string(&log).unwrap_or_default();
    let _ = fs::write(
        &log,
        format!(
            "{previous}=== {} ({:.1} s)\n{stderr}\n",
            name,
            started.elapsed().as_secs_f64()
        ),
    );
    if !output.status.success() {
        return Built::Refused(refusal(&stderr));
    }
    let built = target_dir
        .join(triple)
        .join("release")
        .join(format!("lib{}.so", package.replace('-', "_")));
    let deploy = dir.join("deploy");
    let so = deploy.join(format!("{name}.so"));
    match fs::create_dir_all(&deploy).and_then(|_| fs::copy(&built, &so)) {
        Ok(_) => Built::Program(so),
        Err(e) => Built::Refused(format!("{} not written: {e}", built.display())),
    }
}

/// Why a build failed, in a line: a stack frame the linker refuses (past
/// 4,096 bytes, in which function), else the compiler's errors as the
/// toolchain matrix records them.
fn refusal(stderr: &str) -> String {
    if let Some(line) = stderr
        .lines()
        .find(|l| l.contains("BPF stack limit is exceeded"))
    {
        let function = line
            .split("in function ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or("?");
        return format!(
            "link refused: a stack frame past 4,096 bytes (in `{}`)",
            short_symbol(function)
        );
    }
    // On one line: the report's tables hold it in a cell.
    benches::toolchains::build::error_of(stderr).replace('\n', " / ")
}

/// A mangled symbol as Rust names it, without hashes or the generated
/// crate's path (`<Type as borsh::de::BorshDeserialize>::deserialize_reader`),
/// and a function's long generic arguments shortened
/// (`core::slice::sort::stable::driftsort_main::<(String, PayloadType), …>`).
fn short_symbol(symbol: &str) -> String {
    let name = crate_free_symbol(symbol);
    if name.len() <= 160 {
        return name;
    }
    // Keep the path and the first generic argument's text, up to a point.
    let cut = name
        .char_indices()
        .filter(|(i, _)| name[*i..].starts_with("::<"))
        .map(|(i, _)| i)
        .next();
    match cut {
        Some(at) => {
            let args = &name[at + 3..];
            let first: String = args
                .chars()
                .scan(0i32, |depth, c| {
                    match c {
                        '<' | '(' | '[' => *depth += 1,
                        '>' | ')' | ']' => *depth -= 1,
                        ',' if *depth == 0 => return None,
                        _ => {}
                    }
                    (*depth >= 0).then_some(c)
                })
                .collect();
            let first = first
                .replace("alloc::string::", "")
                .replace("alloc::vec::", "")
                .replace("alloc::collections::btree::map::", "");
            format!("{}::<{first}, …>", &name[..at])
        }
        None => name,
    }
}

fn crate_free_symbol(symbol: &str) -> String {
    let name = format!("{:#}", rustc_demangle::demangle(symbol));
    let mut out = String::new();
    for part in name.split("idl_") {
        match part.split_once("::") {
            Some((_crate, rest)) if !out.is_empty() || name.starts_with("idl_") => {
                out.push_str(rest)
            }
            _ => out.push_str(part),
        }
    }
    out
}
