//! The harness refuses to run, or to report, anything it cannot trust: each
//! failure is one message naming the program (and operation) and what to do.

use std::{
    fs,
    path::{Path, PathBuf},
    process::Command,
    time::{Duration, SystemTime},
};

use benches::{Case, Family, HarnessError, Input, Shape, Workspace};
use common::token::Operation;
use tempfile::TempDir;

/// A workspace with one token program, `demo`, whose `.so` in the `exact`
/// shape holds `elf` (if any); the other shapes hold the real transmute
/// binaries of that shape.
fn workspace_with(elf: Option<&[u8]>) -> (TempDir, Workspace) {
    let dir = tempfile::tempdir().unwrap();
    let program = dir.path().join("programs/token/demo/src");
    fs::create_dir_all(&program).unwrap();
    fs::write(
        dir.path().join("programs/token/demo/Cargo.toml"),
        "[package]\nname = \"demo-program\"\n",
    )
    .unwrap();
    fs::write(program.join("lib.rs"), "#![no_std]\n").unwrap();
    for shape in Shape::ALL {
        let elf = match shape {
            Shape::Exact => elf.map(<[u8]>::to_vec),
            _ => Some(real_elf(shape)),
        };
        if let Some(elf) = elf {
            let deploy = dir.path().join("target/deploy/token").join(shape.name());
            fs::create_dir_all(&deploy).unwrap();
            fs::write(deploy.join("demo.so"), elf).unwrap();
        }
    }
    let workspace = Workspace::at(dir.path());
    (dir, workspace)
}

/// A real, current program binary from this workspace: transmute, built in
/// `shape`.
fn real_elf(shape: Shape) -> Vec<u8> {
    let workspace = Workspace::current();
    let transmute = workspace
        .programs()
        .unwrap()
        .into_iter()
        .find(|p| p.name == "transmute" && p.shape == shape);
    workspace
        .elf(&transmute.expect("programs/token/transmute"))
        .unwrap_or_else(|e| panic!("{e}"))
}

fn load_error(workspace: &Workspace) -> HarnessError {
    workspace
        .load(Family::Token)
        .map(|_| ())
        .expect_err("the harness must refuse this binary")
}

/// The `make bench` binary on `workspace`: its exit and its stderr.
fn run_bench(workspace: &Workspace) -> (bool, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_bench"))
        .env("BENCH_WORKSPACE", &workspace.root)
        .env("RUST_LOG", "error")
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

/// The bench exits non-zero with one line that contains every part.
fn assert_bench_refuses(workspace: &Workspace, parts: &[&str]) {
    let (ok, stderr) = run_bench(workspace);
    assert!(!ok, "the bench must fail");
    assert_one_line(&stderr, parts);
}

fn assert_one_line(stderr: &str, parts: &[&str]) {
    assert_eq!(stderr.lines().count(), 1, "one message expected: {stderr}");
    for part in parts {
        assert!(stderr.contains(part), "{part:?} missing from: {stderr}");
    }
}

#[test]
fn missing_binary_says_make_all() {
    let (_dir, workspace) = workspace_with(None);
    let error = load_error(&workspace);
    assert_eq!(
        error.to_string(),
        "program `demo`: target/deploy/token/exact/demo.so is missing; run `make all`"
    );
    assert_bench_refuses(&workspace, &["program `demo`", "missing", "make all"]);
}

#[test]
fn unknown_token_encoding_is_refused() {
    let (dir, workspace) = workspace_with(Some(&real_elf(Shape::Exact)));
    fs::write(
        dir.path().join("programs/token/demo/Cargo.toml"),
        "[package]\nname = \"demo-program\"\n\n[package.metadata.token]\nencoding = \"nope\"\n",
    )
    .unwrap();
    let error = workspace.programs().unwrap_err().to_string();
    for part in [
        "program `demo`",
        "Cargo.toml",
        "`nope`",
        "raw, postcard, bincode_varint",
    ] {
        assert!(error.contains(part), "{part:?} missing from: {error}");
    }
}

#[test]
fn non_elf_binary_is_refused() {
    let (_dir, workspace) = workspace_with(Some(b"not a program"));
    let error = load_error(&workspace);
    assert!(
        matches!(&error, HarnessError::Invalid { program, reason, .. } if program == "demo" && reason == "no ELF header"),
        "{error}"
    );
    assert_bench_refuses(
        &workspace,
        &["program `demo`", "not a loadable sBPF program", "make all"],
    );
}

#[test]
fn truncated_binary_is_refused() {
    let elf = real_elf(Shape::Exact);
    let (_dir, workspace) = workspace_with(Some(&elf[..elf.len() / 2]));
    let error = load_error(&workspace);
    assert!(
        matches!(&error, HarnessError::Invalid { program, .. } if program == "demo"),
        "{error}"
    );
    assert_bench_refuses(
        &workspace,
        &["program `demo`", "not a loadable sBPF program", "make all"],
    );
}

#[test]
fn binary_older_than_its_sources_is_stale() {
    let (dir, workspace) = workspace_with(Some(&real_elf(Shape::Exact)));
    workspace
        .load(Family::Token)
        .unwrap_or_else(|e| panic!("a fresh binary must load: {e}"));
    let source = fs::File::options()
        .write(true)
        .open(dir.path().join("programs/token/demo/src/lib.rs"))
        .unwrap();
    source
        .set_modified(SystemTime::now() + Duration::from_secs(60))
        .unwrap();
    assert_eq!(
        load_error(&workspace).to_string(),
        "program `demo`: target/deploy/token/exact/demo.so is older than programs/token/demo/src/lib.rs; run `make all`"
    );
    assert_bench_refuses(&workspace, &["program `demo`", "older than", "make all"]);
}

#[test]
fn program_error_names_program_operation_and_error() {
    let (_dir, workspace) = workspace_with(Some(&real_elf(Shape::Exact)));
    let (programs, mollusk) = workspace.load(Family::Token).unwrap();
    let mut case = Case::new(
        &programs[0],
        "full",
        &Input::valid(Operation::Full, programs[0].encoding),
    );
    // The account now holds another owner, while the case still expects
    // success: exactly what `must_pass` must not let through.
    case.accounts[0].1.data[32] ^= 0xFF;
    let error = case
        .run(&mollusk)
        .expect_err("the failure must be reported");
    assert_eq!(
        error.to_string(),
        "program `demo`, operation `full`: expected success, got Failure(IncorrectAuthority)"
    );
}

#[test]
fn bench_measures_a_valid_copy() {
    let (_dir, workspace) = workspace_with(Some(&real_elf(Shape::Exact)));
    let rows = crate::measure(&workspace);
    let names: Vec<String> = rows.iter().map(|m| m.row()).collect();
    assert_eq!(
        names,
        [
            "demo::full",
            "demo::read_owner",
            "demo::update_amount",
            "at_least/demo::full",
            "at_least/demo::read_owner",
            "at_least/demo::update_amount",
            "unchecked/demo::full",
            "unchecked/demo::read_owner",
            "unchecked/demo::update_amount",
        ]
    );
}

/// `make` on this workspace with `PATH` set; its exit and stderr.
fn make(args: &[&str], path: &str) -> (bool, String) {
    let root = Workspace::current().root;
    let output = Command::new("make")
        .args(args)
        .current_dir(&root)
        .env("PATH", path)
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn make_lists_programs_for_an_unknown_one() {
    for (family, title) in [(Family::Token, "Token"), (Family::Message, "Message")] {
        let target = format!("build-{}-nosuchcrate", family.name());
        let (ok, stderr) = make(
            &["--no-print-directory", &target],
            &std::env::var("PATH").unwrap(),
        );
        assert!(!ok);
        let says = format!(
            "no program 'nosuchcrate' under programs/{}/. {title} programs: ",
            family.name()
        );
        assert!(stderr.contains(&says), "{stderr}");
        for program in Workspace::current().programs().unwrap() {
            if program.family == family {
                assert!(stderr.contains(&program.name), "{stderr}");
            }
        }
    }
}

#[test]
fn setup_without_rustup_says_what_to_do() {
    let no_rustup = Path::new("/usr/bin:/bin");
    let (ok, stderr) = make(
        &["--no-print-directory", "setup"],
        no_rustup.to_str().unwrap(),
    );
    assert!(!ok);
    assert!(
        stderr.starts_with("setup failed: rustup not found. Install it from rustup.rs"),
        "{stderr}"
    );
}

/// Runs `command` and fails the test, with its stderr, unless it succeeds.
fn succeed(command: &mut Command) {
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// Copies the tree without build output, tools or git history. Unchanged
/// files keep their times, so cargo's build of the copy stays warm.
/// Every `.so` below `from`, copied to the same place below `to`; the
/// copies.
fn copy_programs(from: &Path, to: &Path) -> Vec<PathBuf> {
    let mut copies = Vec::new();
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "so") {
            let target = to.join(entry.path().strip_prefix(from).unwrap());
            fs::create_dir_all(target.parent().unwrap()).unwrap();
            fs::copy(entry.path(), &target).unwrap();
            copies.push(target);
        }
    }
    copies
}

/// `lock` without the `[[package]]` entry of `package`.
fn without_package(lock: &str, package: &str) -> String {
    lock.split("\n[[package]]\n")
        .filter(|block| !block.starts_with(&format!("name = \"{package}\"\n")))
        .collect::<Vec<_>>()
        .join("\n[[package]]\n")
}

fn copy_sources(from: &Path, to: &Path) {
    let skip = [".git", ".tools", "target"].map(|name| from.join(name));
    let entries = walkdir::WalkDir::new(from)
        .into_iter()
        .filter_entry(|e| !skip.iter().any(|s| e.path() == s));
    for entry in entries {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            fs::create_dir_all(&target).unwrap();
        } else if fs::read(&target).ok() != Some(fs::read(entry.path()).unwrap()) {
            fs::copy(entry.path(), &target).unwrap();
            benches::files::keep_modified(entry.path(), &target).unwrap();
        }
    }
}

/// The copy's `.cargo/line-tables.toml` naming this checkout's linker, by
/// the path cargo resolves for this checkout's builds: cargo hashes the
/// linker's path into every unit's fingerprint (not its file name), so a
/// unit built under another path would be built again, in place.
fn same_linker(current: &Path, copy: &Path) {
    let config = copy.join(".cargo/line-tables.toml");
    let relative = "\".tools/profile-linker/bin/sbpf-linker\"";
    let text = fs::read_to_string(&config).unwrap();
    assert_eq!(text.matches(relative).count(), 2, "{text}");
    let absolute = format!("{:?}", current.join(&relative[1..relative.len() - 1]));
    fs::write(&config, text.replace(relative, &absolute)).unwrap();
}

/// Adding a crate is adding a folder: in a copy of this tree, a program made
/// from the template builds, and the bench gives it three rows, with no
/// other file edited.
#[test]
fn new_program_from_the_template_is_built_and_benched() {
    let current = Workspace::current();
    // The copy of the sources sits outside the workspace, or cargo would
    // merge both trees' .cargo/config.toml. Cargo builds it in this
    // checkout's `target/`, where `make all` built core, alloc, std and
    // every crate a token program depends on, `common` among them, with
    // the same sources, flags, profile and linker: only the new program
    // compiles. The copy keeps its own deploy folder and build log. The
    // new program is made afresh each time.
    let scratch = std::env::temp_dir().join(format!(
        "serialization-bench-template-test-{}",
        benches::Program::id_for(&current.root.to_string_lossy())
    ));
    let build = current.root.join("target");
    let copy = scratch.join("tree");
    let build_log = copy.join("target/build.log");
    let _ = fs::remove_dir_all(copy.join("programs/token/fresh_crate"));
    let _ = fs::remove_dir_all(copy.join("target"));
    copy_sources(&current.root, &copy);
    same_linker(&current.root, &copy);
    // The installed toolchain is reused; set-up is tested elsewhere.
    let _ = std::os::unix::fs::symlink(current.root.join(".tools"), copy.join(".tools"));
    // What the new program is measured against (the floor, the other
    // programs) is this checkout's build (`make test` runs after `make
    // all`), copied after the sources so that it is newer than they are:
    // only the new program is built.
    let copied = copy_programs(
        &current.root.join("target/deploy"),
        &copy.join("target/deploy"),
    );
    let lock_before = fs::read_to_string(copy.join("Cargo.lock")).unwrap();
    let workspace = Workspace::at(&copy);

    succeed(
        Command::new(env!("CARGO_BIN_EXE_new-program"))
            .args(["token", "fresh_crate"])
            .env("BENCH_WORKSPACE", &copy),
    );
    let make = |target: &str| {
        Command::new("make")
            .args(["--no-print-directory", target])
            .current_dir(&copy)
            .env("CARGO_TARGET_DIR", &build)
            .env("BUILD_LOG", &build_log)
            // Under `make test`, the outer make's choice is not the copy's.
            .env_remove("DEPLOY")
            .output()
            .unwrap()
    };
    // The quiet build: one line per program (the three shapes and
    // solana-program's entrypoint), nothing else.
    let built = make("build-token-fresh_crate");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&built.stdout),
        String::from_utf8_lossy(&built.stderr),
    );
    assert!(built.status.success(), "{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    let expected = [
        "token/exact/fresh_crate.so ",
        "token/at_least/fresh_crate.so ",
        "token/unchecked/fresh_crate.so ",
        "solana-program/token/fresh_crate.so ",
    ];
    assert_eq!(lines.len(), expected.len(), "{stdout}");
    for (line, program) in lines.iter().zip(expected) {
        assert!(
            line.starts_with(&format!("  {program}")) && line.contains(" bytes  ["),
            "{line}"
        );
    }
    // The build added the new package to the lockfile, and nothing else:
    // the other programs' builds are what they were, so their copies are
    // as new as the lockfile.
    let lock_after = fs::read_to_string(copy.join("Cargo.lock")).unwrap();
    assert_ne!(lock_after, lock_before);
    assert_eq!(
        without_package(&lock_after, "fresh_crate-program"),
        lock_before
    );
    for program in copied {
        fs::File::options()
            .write(true)
            .open(&program)
            .and_then(|file| file.set_modified(SystemTime::now()))
            .unwrap();
    }
    for noise in ["dlopen", "PATH", "Compiling", "warning"] {
        assert!(
            !stdout.contains(noise) && !stderr.contains(noise),
            "{stdout}{stderr}"
        );
    }
    let log = fs::read_to_string(&build_log).unwrap();
    assert!(log.contains("-p fresh_crate-program"), "{log}");
    // The new program alone compiled: what it shares with the others was
    // this checkout's build.
    let compiled: Vec<&str> = log
        .lines()
        .filter_map(|line| line.trim().strip_prefix("Compiling "))
        .collect();
    assert!(
        compiled
            .iter()
            .all(|unit| unit.starts_with("fresh_crate-program ")),
        "{compiled:?}"
    );

    let (ok, stderr) = run_bench(&workspace);
    assert!(ok, "{stderr}");
    let table = fs::read_to_string(workspace.benches_dir().join("compute_units.md")).unwrap();
    for shape in ["", "at_least/", "unchecked/"] {
        for op in ["full", "read_owner", "update_amount"] {
            assert!(
                table.contains(&format!("| {shape}fresh_crate::{op} | ")),
                "{table}"
            );
        }
    }

    // A broken program: the compiler's error and the log's path, and a
    // failed make.
    let source = copy.join("programs/token/fresh_crate/src/lib.rs");
    let mut text = fs::read_to_string(&source).unwrap();
    text.push_str("\nfn unfinished( {\n");
    fs::write(&source, text).unwrap();
    let failed = make("build-token-fresh_crate");
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success());
    let log = build_log.display().to_string();
    for says in [
        "build failed: token/exact (cargo build",
        "-p fresh_crate-program), exit 101",
        "error: this file contains an unclosed delimiter",
        "programs/token/fresh_crate/src/lib.rs",
        "cargo's whole output: ",
        log.as_str(),
    ] {
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
    assert!(!stderr.contains("dlopen"), "{stderr}");
    // The copy of the sources goes; the new program's build stays in
    // target/.
    fs::remove_dir_all(&scratch).unwrap();
}

/// A message program whose format has no host codec is refused with what
/// to do, before anything is measured.
#[test]
fn message_program_without_a_host_codec_is_refused() {
    let current = Workspace::current();
    let borsh = current
        .programs()
        .unwrap()
        .into_iter()
        .find(|p| p.family == Family::Message && p.name == "borsh")
        .expect("programs/message/borsh");
    let elf = current.elf(&borsh).unwrap_or_else(|e| panic!("{e}"));
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir_all(dir.path().join("programs/message/fresh_format")).unwrap();
    fs::write(
        dir.path().join("programs/message/fresh_format/Cargo.toml"),
        "[package]\nname = \"fresh_format-message-program\"\n",
    )
    .unwrap();
    fs::create_dir_all(dir.path().join("target/deploy/message")).unwrap();
    fs::write(
        dir.path().join("target/deploy/message/fresh_format.so"),
        elf,
    )
    .unwrap();
    let workspace = Workspace::at(dir.path());
    assert_bench_refuses(
        &workspace,
        &[
            "program `message/fresh_format`",
            "no host codec",
            "add `fresh_format` to HOST_FORMATS in common/src/message/formats.rs",
        ],
    );
}

/// The cores the timings table divides by: `nproc`'s, as the script's.
fn cores() -> usize {
    let output = Command::new("nproc").output().unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

/// Runs `benches/timings.sh table` on `lines` (make started at 100).
fn timings_table(lines: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let timings = dir.path().join("timings.tsv");
    fs::write(&timings, lines).unwrap();
    let output = Command::new(Workspace::current().root.join("benches/timings.sh"))
        .arg("table")
        .arg(&timings)
        .arg("100")
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap()
}

/// A table's rows (after its title and header), each split into cells.
fn table_rows(table: &str) -> Vec<Vec<&str>> {
    table
        .lines()
        .skip(2)
        .map(|line| {
            line.split("  ")
                .map(str::trim)
                .filter(|c| !c.is_empty())
                .collect()
        })
        .collect()
}

/// `make all`'s table of where its time went: a step's subfolders are one
/// row (first start to last end, the seconds its builds took, their CPU
/// seconds and the cores those kept busy), in the order the steps began;
/// the total runs to the last end, and its CPU seconds over the machine's
/// cores are the least time any order of the steps could take.
#[test]
fn make_all_timings_are_one_row_a_step() {
    let table = timings_table(
        "setup\t100\t110\t5.5\ntoken/exact\t110\t130\t30.25\n\
         token/at_least\t130\t140\t9\nharness (alongside)\t110\t150\t70\n\
         anchor1\t140\t145\t5\n",
    );
    let cores = cores();
    let floor = format!(
        "(119 CPU seconds on {cores} cores: no order of these steps takes under {} s)",
        119 / cores
    );
    assert_eq!(
        table_rows(&table),
        [
            vec!["setup", "0", "10", "10", "5", "0.6"],
            vec!["token", "10", "40", "30", "39", "1.3"],
            vec!["harness (alongside)", "10", "50", "40", "70", "1.8"],
            vec!["anchor1", "40", "45", "5", "5", "1.0"],
            vec!["total", "50", "119"],
            vec![floor.as_str()],
        ],
        "{table}"
    );
}

/// A step whose CPU seconds were not noted (a timings file from before
/// they were) shows none, and the table claims no total CPU and no least
/// time.
#[test]
fn make_all_timings_without_cpu_claim_no_floor() {
    let table = timings_table("setup\t100\t110\ntoken/exact\t110\t130\t3\n");
    assert_eq!(
        table_rows(&table),
        [
            vec!["setup", "0", "10", "10", "-", "-"],
            vec!["token", "10", "30", "20", "3", "0.1"],
            vec!["total", "30", "-"],
        ],
        "{table}"
    );
}

/// `benches/timings.sh <before> <a timings file> <after>` on a file that
/// holds `stale`: the one row of four fields it leaves there.
fn timings_row(stale: &str, before: &[&str], after: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let timings = dir.path().join("timings.tsv");
    fs::write(&timings, stale).unwrap();
    let status = Command::new(Workspace::current().root.join("benches/timings.sh"))
        .args(before)
        .arg(&timings)
        .args(after)
        .status()
        .unwrap();
    assert!(status.success());
    let line = fs::read_to_string(&timings).unwrap();
    assert_eq!(line.lines().count(), 1, "{line:?}");
    assert_eq!(line.trim_end().split('\t').count(), 4, "{line:?}");
    line
}

/// `benches/timings.sh run` notes a step's start, end and the CPU seconds
/// its command spent (here a busy loop in a shell: at least a few
/// hundredths, and no more than its wall time on every core).
#[test]
fn a_timed_step_notes_its_cpu_seconds() {
    let line = timings_row(
        "",
        &["run", "busy"],
        &[
            "sh",
            "-c",
            "i=0; while [ $i -lt 200000 ]; do i=$((i + 1)); done",
        ],
    );
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(fields[0], "busy");
    let (start, end): (u64, u64) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
    let cpu: f64 = fields[3].parse().unwrap();
    let cores = cores() as f64;
    assert!(end >= start, "{line:?}");
    assert!(
        cpu >= 0.02 && cpu <= ((end - start + 1) as f64) * cores,
        "{line:?}"
    );
}

/// `benches/timings.sh begin` starts the file afresh with one row for what
/// make did before its first step: from make's start to now, with the CPU
/// seconds of the given process's children (here this test's own).
#[test]
fn the_first_row_is_what_make_did_before_its_first_step() {
    let line = timings_row(
        "stale\t1\t2\t3\n",
        &["begin", "all, published, browser"],
        &["100", &std::process::id().to_string()],
    );
    let fields: Vec<&str> = line.trim_end().split('\t').collect();
    assert_eq!(&fields[..2], ["all, published, browser", "100"]);
    assert!(fields[2].parse::<u64>().unwrap() > 100, "{line:?}");
    assert!(fields[3].parse::<f64>().unwrap() >= 0.0, "{line:?}");
}
