//! benches/build-programs.sh, with a stand-in for cargo: each program is
//! split into the `.so` measured and its `.so.debug`, and a program whose
//! line tables LLVM cannot write BTF for is linked again without BTF,
//! saying so.

use std::{fs, os::unix::fs::PermissionsExt, path::Path, process::Command};

use benches::Workspace;

/// A `cargo` that fails as LLVM 23 does on some programs' BTF when given
/// `.cargo/line-tables.toml` (where `crash` is set) unless the link is
/// told `--without-btf`, and otherwise "links" `linked` where
/// build-programs.sh looks for borsh's program.
fn fake_cargo(bin: &Path, linked: &Path, crash: bool) {
    let script = format!(
        "#!/usr/bin/env bash\n\
         if {crash} && [[ \" $* \" == *line-tables.toml* && \" $* \" != *--without-btf* ]]; then\n\
           echo 'error: linking with `.tools/profile-linker/bin/sbpf-linker` failed: signal: 4 (SIGILL)' >&2; exit 101\n\
         fi\n\
         mkdir -p \"$CARGO_TARGET_DIR/bpfel-unknown-none/release\"\n\
         cp {} \"$CARGO_TARGET_DIR/bpfel-unknown-none/release/libborsh_program.so\"\n",
        linked.display()
    );
    fs::create_dir_all(bin).unwrap();
    let cargo = bin.join("cargo");
    fs::write(&cargo, script).unwrap();
    fs::set_permissions(&cargo, fs::Permissions::from_mode(0o755)).unwrap();
}

/// build-programs.sh on borsh's token program with `cargo` faked in
/// `dir`; its status, its stderr, and the deploy folder.
fn build(dir: &Path, linked: &Path, crash: bool) -> (bool, String, std::path::PathBuf) {
    let root = Workspace::current().root;
    let bin = dir.join("bin");
    fake_cargo(&bin, linked, crash);
    let deploy = dir.join("deploy");
    let output = Command::new(root.join("benches/build-programs.sh"))
        .args(["token/exact", "", "programs/token/borsh"])
        .current_dir(&root)
        .env(
            "PATH",
            format!("{}:{}", bin.display(), std::env::var("PATH").unwrap()),
        )
        .env("SBF_TOOLCHAIN", "upstream")
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env("DEPLOY", &deploy)
        .env("BUILD_LOG", dir.join("build.log"))
        .env_remove("TIMINGS")
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        deploy.join("token/exact"),
    )
}

/// `make all`'s borsh token program and its `.so.debug`: the file as
/// linked with line tables.
fn borsh() -> (Vec<u8>, std::path::PathBuf) {
    let so = Workspace::current()
        .deploy_dir()
        .join("token/exact/borsh.so");
    let measured = fs::read(&so).unwrap_or_else(|e| panic!("{}: {e}; run make all", so.display()));
    (measured, split_debug::debug_path(&so))
}

#[test]
fn a_linked_program_is_split_into_the_measured_so_and_its_debug() {
    let (measured, linked) = borsh();
    let dir = tempfile::tempdir().unwrap();
    let (ok, stderr, deploy) = build(dir.path(), &linked, false);
    assert!(ok, "{stderr}");
    assert_eq!(fs::read(deploy.join("borsh.so")).unwrap(), measured);
    assert_eq!(
        fs::read(deploy.join("borsh.so.debug")).unwrap(),
        fs::read(&linked).unwrap()
    );
    let log = fs::read_to_string(dir.path().join("build.log")).unwrap();
    assert!(
        log.contains("build --config ") && log.contains("line-tables.toml"),
        "{log}"
    );
}

#[test]
fn a_btf_crash_links_that_program_again_without_btf() {
    let (measured, _) = borsh();
    let dir = tempfile::tempdir().unwrap();
    // A stale .so.debug from an earlier build goes.
    let deploy = dir.path().join("deploy/token/exact");
    fs::create_dir_all(&deploy).unwrap();
    fs::write(deploy.join("borsh.so.debug"), b"stale").unwrap();
    let stripped = dir.path().join("stripped.so");
    fs::write(&stripped, &measured).unwrap();
    let (ok, stderr, deploy) = build(dir.path(), &stripped, true);
    assert!(ok, "{stderr}");
    assert!(
        stderr.contains("token/exact/borsh: LLVM crashed writing the BTF of its line tables")
            && stderr.contains("linked again without BTF, so its profiles name functions"),
        "{stderr}"
    );
    assert!(!stderr.contains("build failed"), "{stderr}");
    assert_eq!(fs::read(deploy.join("borsh.so")).unwrap(), measured);
    assert!(!deploy.join("borsh.so.debug").exists());
    // Both builds are in the log, the crash with its words; the second is
    // the program's own, with the same flags, linked without BTF.
    let log = fs::read_to_string(dir.path().join("build.log")).unwrap();
    let builds: Vec<&str> = log.lines().filter(|l| l.starts_with("=== ")).collect();
    assert_eq!(builds.len(), 2, "{log}");
    assert!(builds[0].starts_with("=== token/exact: cargo build --config "));
    let again = builds[1]
        .strip_prefix("=== token/exact: cargo rustc --config ")
        .unwrap_or_else(|| panic!("{log}"));
    assert_eq!(
        again.split_once(" --lib -- "),
        Some((
            &builds[0]["=== token/exact: cargo build --config ".len()..],
            "-C link-arg=--without-btf"
        )),
        "{log}"
    );
    assert!(log.contains("failed: signal: 4 (SIGILL)"), "{log}");
}
