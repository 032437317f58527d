//! Building: the crates whose manifests are alike with one cargo
//! invocation (cargo goes on past a refused one, and its messages say
//! which crate each refusal is of, so a link refused for one cannot hide
//! another), what the same files came to before reused (a `.so` or a
//! refusal), and a compiler's or linker's refusal put in a few words.

use std::{
    fs,
    path::{Path, PathBuf},
    time::{Instant, SystemTime},
};

use benches::{files::write_whole, reproducible::is_btf_crash};
use sha2::{Digest, Sha256};
use split_debug::debug_path;

use super::{
    refusal::{FRAME_SIZES, Frame, Refusal, without_remarks},
    write::ANCHOR1,
};
use crate::render::RowFormat;

/// What building one crate came to.
#[derive(Clone, Debug)]
pub enum Built {
    /// The `.so`, copied to `deploy/<name>.so`.
    Program(PathBuf),
    /// The compiler or the linker refused it (a stack frame past 4 KiB is
    /// refused at link time): a measured outcome, with its words.
    Refused(Refusal),
}

/// One generated crate: its name (the `.so`'s, in `deploy/`), its
/// package and its format (which workspace and route build it).
#[derive(Clone, Debug)]
pub struct Crate {
    pub name: String,
    pub package: String,
    pub format: RowFormat,
}

/// Builds one planned crate of `format` with the project's toolchain (the
/// repository's `.cargo/config.toml`), in the run's pinocchio workspace or
/// its Anchor one (as `make all` builds `programs/anchor1/`: the std
/// target, std's patched sources), its output appended to `build.log`.
/// What the same files came to (a `.so` or a refusal, [`BUILDS`]) is
/// reused where it is newer than everything else it is built from: a
/// second run with nothing changed builds nothing, a refused program's
/// bisection included, and a crate [`build_together`] built is not built
/// again.
pub fn build_format(
    root: &Path,
    dir: &Path,
    name: &str,
    package: &str,
    format: RowFormat,
) -> Built {
    let (workspace, inputs, route) = site(root, dir, format);
    reuse_or(root, dir, &workspace, name, &inputs, || {
        compile(root, &workspace, name, package, route)
    })
}

/// Builds every crate of `crates` that has no current record ([`BUILDS`])
/// with as few cargo invocations as their manifests allow, and records
/// what each came to, so that [`build_format`] then finds it: one
/// invocation for the crates of one workspace whose manifests are alike
/// but for the package's name (cargo unifies the features of what one
/// invocation builds, so crates whose dependencies differ are never built
/// together: each is built as it would be alone). cargo then compiles
/// and links them on every core, and goes on past a crate it cannot build
/// (`--keep-going`); its messages (`--message-format=json`) say which
/// crate each refusal is of.
pub fn build_together(root: &Path, dir: &Path, crates: &[Crate]) {
    let mut groups: Vec<Group> = Vec::new();
    for krate in crates {
        let (workspace, inputs, route) = site(root, dir, krate.format);
        let record = Record::of(root, dir, &workspace, &krate.name, &inputs);
        if record.current().is_some() {
            continue;
        }
        let manifest = workspace
            .join("programs")
            .join(&krate.name)
            .join("Cargo.toml");
        let key = (
            workspace,
            alike(&fs::read_to_string(manifest).unwrap_or_default()),
        );
        match groups.iter_mut().find(|(k, ..)| *k == key) {
            Some((.., members)) => members.push((krate, record)),
            None => groups.push((key, route, vec![(krate, record)])),
        }
    }
    for ((workspace, _), route, members) in groups {
        let packages: Vec<(&str, &str)> = members
            .iter()
            .map(|(c, _)| (c.name.as_str(), c.package.as_str()))
            .collect();
        let built = compile_with(root, &workspace, &packages, (route, true));
        for ((krate, record), (built, _)) in members.iter().zip(built) {
            let one = (krate.name.as_str(), krate.package.as_str());
            record.keep(&or_without_btf(built, root, &workspace, one, route));
        }
    }
}

/// Crates built with one invocation: their workspace and manifest (as
/// [`alike`] reads it), their route, and each with its record.
type Group<'a> = ((PathBuf, String), Route, Vec<(&'a Crate, Record)>);

/// A manifest without its package's name: two crates whose manifests are
/// alike build their dependencies with the same features.
fn alike(manifest: &str) -> String {
    manifest
        .lines()
        .filter(|line| !line.trim_start().starts_with("name ="))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Where a crate of `format` is built: its workspace (the run's, or its
/// Anchor workspace), what else its build reads (a newer file builds it
/// again), and how.
fn site(root: &Path, dir: &Path, format: RowFormat) -> (PathBuf, Vec<PathBuf>, Route) {
    if format.is_anchor1() {
        let workspace = dir.join(ANCHOR1);
        let inputs = vec![
            workspace.join("Cargo.toml"),
            root.join("benches/std/bpfel-solana.json"),
        ];
        (workspace, inputs, Route::Std)
    } else {
        let inputs = vec![
            dir.join("Cargo.toml"),
            root.join("common/src"),
            root.join("common/Cargo.toml"),
        ];
        (dir.to_path_buf(), inputs, Route::Core)
    }
}

/// Where a run keeps what each crate it built came to (`<hash>.so` or
/// `<hash>.refused`), by the hash of the crate's files ([`crate_hash`]):
/// a refused program's bisection writes the same crate again and again
/// (the whole program, its parts under the probe's name, the program
/// without its culprits), so a time stamp cannot say which one a `.so`
/// is of, and a second run would build every part again.
pub const BUILDS: &str = "builds";

/// What the same files of one crate came to, kept in the run's
/// [`BUILDS`].
struct Record {
    /// Where the crate's `.so` goes (`deploy/<name>.so`).
    deployed: PathBuf,
    so: PathBuf,
    refused: PathBuf,
    /// The newest of the toolchain's files and the crate's other inputs.
    inputs: SystemTime,
}

impl Record {
    fn of(root: &Path, dir: &Path, workspace: &Path, name: &str, inputs: &[PathBuf]) -> Self {
        let mut paths = vec![root.join(".cargo"), root.join("rust-toolchain.toml")];
        paths.extend_from_slice(inputs);
        let hash = crate_hash(&workspace.join("programs").join(name));
        let builds = dir.join(BUILDS);
        Self {
            deployed: dir.join("deploy").join(format!("{name}.so")),
            so: builds.join(format!("{hash}.so")),
            refused: builds.join(format!("{hash}.refused")),
            inputs: newest(&paths),
        }
    }

    /// What the files came to, where that is newer than the inputs (a
    /// `.so` is put back in `deploy/`).
    fn current(&self) -> Option<Built> {
        if modified(&self.so).is_some_and(|when| when > self.inputs)
            && install(&self.so, &self.deployed).is_ok()
        {
            return Some(Built::Program(self.deployed.clone()));
        }
        // A refusal is in the words of the binary that wrote it: one
        // written before this binary was built is found again, so that a
        // run's reasons are all this binary's.
        let words = std::env::current_exe().ok().and_then(|exe| modified(&exe));
        let since = words.map_or(self.inputs, |words| words.max(self.inputs));
        if modified(&self.refused).is_some_and(|when| when > since)
            && let Ok(text) = fs::read_to_string(&self.refused)
        {
            return Some(Built::Refused(Refusal::read(&text)));
        }
        None
    }

    /// Keeps what the files came to. Recorded whole (runs of one IDL at
    /// once share the folder); a record that cannot be written only means
    /// building again next time.
    fn keep(&self, built: &Built) {
        let _ = match built {
            Built::Program(so) => install(so, &self.so),
            Built::Refused(refused) => self
                .refused
                .parent()
                .map_or(Ok(()), |builds| {
                    fs::create_dir_all(builds).map_err(|e| e.to_string())
                })
                .and_then(|()| write_whole(&self.refused, refused.text())),
        };
    }
}

/// The `.so` (copied to `dir`'s `deploy/`) or the refusal that the same
/// files of the crate in `workspace` came to, where that is current
/// ([`Record`]); else what `compile` builds, recorded.
fn reuse_or(
    root: &Path,
    dir: &Path,
    workspace: &Path,
    name: &str,
    inputs: &[PathBuf],
    compile: impl FnOnce() -> Built,
) -> Built {
    let record = Record::of(root, dir, workspace, name, inputs);
    if let Some(built) = record.current() {
        return built;
    }
    let built = compile();
    record.keep(&built);
    built
}

/// The SHA-256 of a crate's files (each one's path in the crate and its
/// bytes, in path order), in hex.
fn crate_hash(crate_dir: &Path) -> String {
    let mut files = Vec::new();
    let mut stack = vec![crate_dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        match fs::read_dir(&path) {
            Ok(entries) => stack.extend(entries.flatten().map(|e| e.path())),
            Err(_) => files.push(path),
        }
    }
    files.sort();
    let mut hasher = Sha256::new();
    for file in files {
        let relative = file.strip_prefix(crate_dir).unwrap_or(&file);
        let bytes = fs::read(&file).unwrap_or_default();
        hasher.update(relative.to_string_lossy().as_bytes());
        hasher.update([0]);
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Copies the program at `from` to `to` with its `.so.debug` (or without,
/// where it has none: a stale one is removed).
fn install(from: &Path, to: &Path) -> Result<(), String> {
    let (debug_from, debug_to) = (debug_path(from), debug_path(to));
    match fs::metadata(&debug_from) {
        Ok(_) => copy_whole(&debug_from, &debug_to)?,
        Err(_) => match fs::remove_file(&debug_to) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(format!("{}: {e}", debug_to.display()));
            }
            _ => {}
        },
    }
    copy_whole(from, to)
}

/// Copies `from` to `to` whole, unless `to` already holds the same bytes
/// (its time stamp then stays).
fn copy_whole(from: &Path, to: &Path) -> Result<(), String> {
    let bytes = fs::read(from).map_err(|e| format!("{}: {e}", from.display()))?;
    if fs::read(to).is_ok_and(|held| held == bytes) {
        return Ok(());
    }
    if let Some(dir) = to.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    write_whole(to, bytes)
}

/// How a crate is built: for `bpfel-unknown-none` with core and alloc (the
/// generated pinocchio programs), or for the std target with std (Anchor
/// 1.x's, as benches/build-programs.sh builds `programs/anchor1/`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Route {
    Core,
    Std,
}

fn modified(path: &Path) -> Option<SystemTime> {
    fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The newest modification time of the files under `paths`.
fn newest(paths: &[PathBuf]) -> SystemTime {
    let mut newest = SystemTime::UNIX_EPOCH;
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
    let with_btf = compile_with(root, workspace, &[(name, package)], (route, true));
    let built = with_btf.into_iter().next().expect("one crate built").0;
    or_without_btf(built, root, workspace, (name, package), route)
}

/// `built`, or where LLVM crashed writing its line tables' BTF, crate
/// `(name, package)` linked again without BTF (its dependencies as they
/// were built).
fn or_without_btf(
    built: Built,
    root: &Path,
    workspace: &Path,
    (name, package): (&str, &str),
    route: Route,
) -> Built {
    match built {
        Built::Refused(refused) if refused.reason == BTF_CRASHED => {
            let without = compile_with(root, workspace, &[(name, package)], (route, false));
            without.into_iter().next().expect("one crate built").0
        }
        built => built,
    }
}

/// Why a build with line tables is linked again without BTF.
const BTF_CRASHED: &str = "LLVM crashed linking the BTF of its line tables";

/// Builds `packages` (each `(name, package)`) of the workspace in
/// `workspace` with one cargo invocation, with line tables, linked with
/// their BTF or (where LLVM crashed writing it; one package) without:
/// that program is then named by function. What each came to, in order:
/// its `.so` (copied to the run's `deploy/<name>.so`; the run's folder is
/// the workspace's, or its parent for the Anchor workspace), or its
/// refusal in the words of the compiler's and linker's messages about it;
/// and those words. The linker reports every function's stack frame
/// ([`FRAME_SIZES`]), so that a refused frame's reason gives its size
/// (LLVM's remarks: the same code, and about as long a link).
fn compile_with(
    root: &Path,
    workspace: &Path,
    packages: &[(&str, &str)],
    (route, btf): (Route, bool),
) -> Vec<(Built, String)> {
    let started = Instant::now();
    let mut command = if btf {
        benches::reproducible::cargo_build(root)
    } else {
        benches::reproducible::cargo_rustc(root)
    };
    let target_dir = match route {
        Route::Core => {
            command.args(["-Z", "build-std=core,alloc", "--release"]);
            command.args(["--target", "bpfel-unknown-none"]);
            // `make all`'s target folder: core, alloc and the crates the
            // families' programs build (same sources, flags and profile)
            // are reused rather than built again.
            root.join("target")
        }
        Route::Std => {
            // Where -Zbuild-std reads std's patched sources (make setup).
            let sources =
                fs::read_to_string(root.join(".tools/std/source-root")).unwrap_or_default();
            command.env("__CARGO_TESTS_ONLY_SRC_ROOT", sources.trim());
            command.args(["-Zjson-target-spec", "-Zbuild-std=std,panic_abort"]);
            command.args(["-Zbuild-std-features=", "--release", "--target"]);
            command.arg(root.join("benches/std/bpfel-solana.json"));
            // `make all`'s target folder for what needs std: std and
            // anchor-lang's crates (same sources, flags and profile) are
            // reused rather than built again.
            root.join("target")
        }
    };
    command
        .env("CARGO_TARGET_DIR", &target_dir)
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .args(["--keep-going", "--message-format=json"]);
    for (_, package) in packages {
        command.args(["-p", package]);
    }
    if !btf {
        command.args(benches::reproducible::WITHOUT_BTF);
    }
    command.env(FRAME_SIZES, "1");
    let output = match command.output() {
        Ok(output) => output,
        Err(e) => {
            let reason = format!("cargo did not start: {e}");
            let refused = (Built::Refused(Refusal::new(reason.clone())), reason);
            return packages.iter().map(|_| refused.clone()).collect();
        }
    };
    let dir = if route == Route::Std {
        workspace.parent().unwrap_or(workspace)
    } else {
        workspace
    };
    let messages = Messages::read(&String::from_utf8_lossy(&output.stdout));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let log = dir.join("build.log");
    let previous = fs::read_to_string(&log).unwrap_or_default();
    let names: Vec<&str> = packages.iter().map(|(name, _)| *name).collect();
    let _ = fs::write(
        &log,
        format!(
            "{previous}=== {} ({:.1} s)\n{}{stderr}\n",
            names.join(", "),
            started.elapsed().as_secs_f64(),
            messages.all(),
        ),
    );
    let deploy = dir.join("deploy");
    packages
        .iter()
        .map(|(name, package)| {
            let lib = package.replace('-', "_");
            // Its own messages; where it has none (a dependency failed),
            // everything cargo said.
            let own = messages.of(&lib);
            let words = if own.is_empty() {
                format!("{}{stderr}", messages.all())
            } else {
                own
            };
            let Some(built) = messages.program(&lib) else {
                let refused = if btf && is_btf_crash(&words) {
                    Refusal::new(BTF_CRASHED)
                } else {
                    Refusal::of(&words)
                };
                return (Built::Refused(refused), words);
            };
            let so = deploy.join(format!("{name}.so"));
            let built = match fs::create_dir_all(&deploy)
                .map_err(|e| e.to_string())
                .and_then(|()| split_debug::write(&built, &so))
            {
                Ok(()) => Built::Program(so),
                Err(e) => Built::Refused(Refusal::new(format!(
                    "{} not written: {e}",
                    built.display()
                ))),
            };
            (built, words)
        })
        .collect()
}

/// What cargo said about each crate it built (`--message-format=json`):
/// the compiler's and the linker's messages, as the compiler renders them,
/// and the programs it wrote, by the crate's library name.
#[derive(Default)]
struct Messages {
    /// (library name, the message as rendered), in cargo's order.
    rendered: Vec<(String, String)>,
    /// (library name, the linked `.so`).
    programs: Vec<(String, PathBuf)>,
}

impl Messages {
    fn read(stdout: &str) -> Self {
        let mut messages = Self::default();
        for line in stdout.lines() {
            let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let target = value["target"]["name"]
                .as_str()
                .unwrap_or_default()
                .to_string();
            match value["reason"].as_str() {
                Some("compiler-message") => {
                    if let Some(text) = value["message"]["rendered"].as_str() {
                        // The frames' sizes matter where a link is refused.
                        let refused = value["message"]["level"] == "error";
                        let text = without_remarks(text, refused);
                        messages.rendered.push((target, text));
                    }
                }
                Some("compiler-artifact") => {
                    let so = value["filenames"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(|f| f.as_str())
                        .find(|f| f.ends_with(".so"));
                    if let Some(so) = so {
                        messages.programs.push((target, PathBuf::from(so)));
                    }
                }
                _ => {}
            }
        }
        messages
    }

    /// The `.so` cargo linked for library `lib`.
    fn program(&self, lib: &str) -> Option<PathBuf> {
        let found = self.programs.iter().find(|(name, _)| name == lib);
        found.map(|(_, so)| so.clone())
    }

    /// Library `lib`'s messages, one after the other.
    fn of(&self, lib: &str) -> String {
        let own = self.rendered.iter().filter(|(name, _)| name == lib);
        own.map(|(_, text)| text.as_str()).collect()
    }

    /// Every message, one after the other.
    fn all(&self) -> String {
        self.rendered
            .iter()
            .map(|(_, text)| text.as_str())
            .collect()
    }
}

/// Every function whose stack frame the linker refused (4,096 bytes
/// or more) when building crate `name` of `format` alone, with its size,
/// in the order the linker named them (none where it linked). Nothing is recorded: the crate is a probe.
pub fn frames_refused(
    root: &Path,
    dir: &Path,
    name: &str,
    package: &str,
    format: RowFormat,
) -> Vec<Frame> {
    let (workspace, _, route) = site(root, dir, format);
    let one = [(name, package)];
    match compile_with(root, &workspace, &one, (route, true))
        .remove(0)
        .0
    {
        Built::Program(_) => Vec::new(),
        Built::Refused(refused) => refused.frames,
    }
}

#[cfg(test)]
mod tests {
    use std::{
        cell::Cell,
        time::{Duration, SystemTime},
    };

    use super::*;

    /// Sets `path`'s modification time.
    fn touch(path: &Path, when: SystemTime) {
        let file = fs::File::options().write(true).open(path).unwrap();
        file.set_modified(when).unwrap();
    }

    /// A run folder with one crate, `demo`, in a root of its own whose
    /// toolchain is a minute old (a file's time stamp is coarser than the
    /// steps of these tests).
    fn folder() -> tempfile::TempDir {
        let root = tempfile::tempdir().unwrap();
        fs::create_dir_all(root.path().join(".cargo")).unwrap();
        let toolchain = root.path().join("rust-toolchain.toml");
        fs::write(&toolchain, "").unwrap();
        touch(&toolchain, SystemTime::now() - Duration::from_secs(60));
        fs::create_dir_all(root.path().join("programs/demo/src")).unwrap();
        fs::write(root.path().join("programs/demo/src/lib.rs"), "// one").unwrap();
        root
    }

    /// `reuse_or` on `demo`, counting the builds: a build writes `so` as
    /// its `.so`, or refuses with `so` as its reason where it is "refused".
    fn build(root: &Path, builds: &Cell<u32>, so: &str) -> Built {
        reuse_or(root, root, root, "demo", &[], || {
            builds.set(builds.get() + 1);
            if so == "refused" {
                return Built::Refused(Refusal::new(so));
            }
            let path = root.join("deploy/demo.so");
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(&path, so).unwrap();
            Built::Program(path)
        })
    }

    fn source(root: &Path, text: &str) {
        fs::write(root.join("programs/demo/src/lib.rs"), text).unwrap();
    }

    #[test]
    fn the_same_files_build_once_each_and_a_change_elsewhere_builds_again() {
        let root = folder();
        let (root, builds) = (root.path(), Cell::new(0));
        let deployed = || fs::read_to_string(root.join("deploy/demo.so")).unwrap();

        assert!(matches!(build(root, &builds, "first"), Built::Program(_)));
        assert!(matches!(build(root, &builds, "unused"), Built::Program(_)));
        assert_eq!((builds.get(), deployed()), (1, "first".to_string()));

        // Other files: built; the first files again (a bisection writing
        // the whole program back): the first `.so`, back in `deploy/`.
        source(root, "// two");
        build(root, &builds, "second");
        assert_eq!((builds.get(), deployed()), (2, "second".to_string()));
        source(root, "// one");
        build(root, &builds, "unused");
        assert_eq!((builds.get(), deployed()), (2, "first".to_string()));

        // A refusal is kept as one.
        source(root, "// three");
        let Built::Refused(reason) = build(root, &builds, "refused") else {
            panic!("not refused")
        };
        let Built::Refused(again) = build(root, &builds, "unused") else {
            panic!("not refused the second time")
        };
        assert_eq!(
            (builds.get(), reason, again),
            (3, Refusal::new("refused"), Refusal::new("refused"))
        );
        // The `.so` of the last files built stays in `deploy/`.
        assert_eq!(deployed(), "first");

        // The toolchain changed after: everything builds again.
        touch(
            &root.join("rust-toolchain.toml"),
            SystemTime::now() + Duration::from_secs(60),
        );
        source(root, "// one");
        build(root, &builds, "rebuilt");
        assert_eq!((builds.get(), deployed()), (4, "rebuilt".to_string()));
    }

    #[test]
    fn an_unchanged_so_keeps_its_time_stamp_and_a_removed_one_comes_back() {
        let root = folder();
        let (root, builds) = (root.path(), Cell::new(0));
        build(root, &builds, "first");
        let so = root.join("deploy/demo.so");
        let earlier = SystemTime::UNIX_EPOCH + Duration::from_secs(1);
        touch(&so, earlier);
        build(root, &builds, "unused");
        assert_eq!(builds.get(), 1);
        assert_eq!(modified(&so), Some(earlier));
        // `deploy/` removed: the kept `.so` is put back, not built again.
        fs::remove_dir_all(root.join("deploy")).unwrap();
        build(root, &builds, "unused");
        assert_eq!(builds.get(), 1);
        assert_eq!(fs::read_to_string(&so).unwrap(), "first");
    }
}
