//! A built program must be the same bytes on every machine. What breaks
//! that is a path: a panic location (`file!()`) names its source file, and
//! unless the build remaps it (`trim-paths`, [`TRIM_PATHS`]) the name is
//! absolute: cargo's registry under `CARGO_HOME`, rustup's sysroot, the
//! checkout, `.tools/`. Its length then moves the program's size, and
//! every `.so` size the report and the docs give would be one machine's.
//! [`cargo_build`] is how the harness and `make idl` start an SBF build with it
//! (benches/build-programs.sh passes the same file).
//!
//! [`absolute_paths`] finds such paths in a program's bytes two ways: the
//! folders this machine builds from, named (the checkout, cargo's and
//! rustup's homes, the sysroot, the home and temporary folders), and any
//! `*.rs` path in the bytes that names a file that exists here (a source
//! the build read, wherever it lay).

use std::{
    env, fs,
    path::{Path, PathBuf},
    process::Command,
};

/// The cargo configuration every upstream SBF build reads, relative to the
/// workspace root: cargo's `trim-paths` on release builds.
pub const TRIM_PATHS: &str = ".cargo/trim-paths.toml";

/// The line tables every program is built with, and the linker that
/// resolves their addresses (the file says why), relative to the root.
pub const LINE_TABLES: &str = ".cargo/line-tables.toml";

/// `cargo build --config <TRIM_PATHS> --config <LINE_TABLES>`, run in
/// `root`: add the build's arguments; install what it links with
/// [`split_debug::write`].
pub fn cargo_build(root: &Path) -> Command {
    cargo(root, "build")
}

/// `cargo rustc` with the same configuration, for a program whose line
/// tables LLVM cannot write BTF for ([`is_btf_crash`]): add the build's
/// arguments (one package), then [`WITHOUT_BTF`]. Its dependencies are
/// the ones [`cargo_build`] built; the program alone is compiled again
/// and linked without BTF, so without debug sections (the bytes a build
/// without line tables links), and named by function.
pub fn cargo_rustc(root: &Path) -> Command {
    cargo(root, "rustc")
}

/// What ends a [`cargo_rustc`] command: the program's own link told to
/// leave BTF out (benches/profile-linker/without-btf.patch). As arguments
/// of the program's `rustc` alone, they leave every dependency's flags,
/// and so its build, as they were (`--btf` is one of every crate's
/// rustflags).
pub const WITHOUT_BTF: [&str; 4] = ["--lib", "--", "-C", "link-arg=--without-btf"];

/// `cargo <subcommand>` in `root` with both configuration files.
fn cargo(root: &Path, subcommand: &str) -> Command {
    let mut command = Command::new("cargo");
    command
        .current_dir(root)
        .arg(subcommand)
        .arg("--config")
        .arg(root.join(TRIM_PATHS))
        .arg("--config")
        .arg(root.join(LINE_TABLES));
    command
}

/// Whether cargo's output `stderr` is LLVM's crash on a program's line
/// tables: the link (with `--btf`) killed by a signal, as LLVM 23 dies
/// (`SIGILL`, in `BTFDebug::visitTypeEntry`) on some Anchor programs'
/// (as benches/build-programs.sh matches it).
pub fn is_btf_crash(stderr: &str) -> bool {
    stderr.contains("BTFDebug")
        || stderr.lines().any(|line| {
            line.starts_with("error: linking with ") && line.contains(" failed: signal: ")
        })
}

/// The folders a build on this machine could leave in a program: the
/// checkout, `CARGO_HOME`, `RUSTUP_HOME`, the pinned toolchain's sysroot,
/// the home folder and the temporary folder. Each ends with `/`.
pub fn machine_folders(root: &Path) -> Vec<String> {
    let home = env::var_os("HOME").map(PathBuf::from);
    let under_home = |name: &str| home.as_ref().map(|h| h.join(name));
    let sysroot = Command::new("rustc")
        .current_dir(root)
        .args(["--print", "sysroot"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    let folders = [
        Some(root.to_path_buf()),
        env::var_os("CARGO_HOME")
            .map(PathBuf::from)
            .or_else(|| under_home(".cargo")),
        env::var_os("RUSTUP_HOME")
            .map(PathBuf::from)
            .or_else(|| under_home(".rustup")),
        sysroot,
        home,
        Some(env::temp_dir()),
    ];
    let mut out: Vec<String> = Vec::new();
    for folder in folders.into_iter().flatten() {
        // Both spellings: as given, and with links resolved.
        let resolved = fs::canonicalize(&folder).unwrap_or_else(|_| folder.clone());
        for path in [folder, resolved] {
            let text = path.to_string_lossy().trim_end_matches('/').to_string();
            // `/` alone would match every path, and a cargo home at
            // `/cargo` every remapped one.
            let remapped_root = ["/cargo", "/rustc"].contains(&text.as_str());
            if text.len() > 1 && !remapped_root && !out.contains(&format!("{text}/")) {
                out.push(format!("{text}/"));
            }
        }
    }
    out
}

/// The absolute paths in `bytes`: each place one of `folders` occurs, and
/// each `*.rs` path naming a file that exists on this machine. Each is
/// given as the printable text around it, once.
pub fn absolute_paths(bytes: &[u8], folders: &[String]) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut add = |at: usize| {
        let text = printable_around(bytes, at);
        if !found.contains(&text) {
            found.push(text);
        }
    };
    for folder in folders {
        for at in find_all(bytes, folder.as_bytes()) {
            add(at);
        }
    }
    for end in find_all(bytes, b".rs") {
        let end = end + 3;
        let mut start = end;
        while start > 0 && is_path_byte(bytes[start - 1]) {
            start -= 1;
        }
        // Strings sit end to end in the read-only data, so the path may
        // start anywhere in the run: try every `/`.
        let named_file = (start..end).any(|at| {
            bytes[at] == b'/'
                && std::str::from_utf8(&bytes[at..end]).is_ok_and(|p| Path::new(p).is_file())
        });
        if named_file {
            add(start);
        }
    }
    found
}

/// Every program built in this checkout: the `.so` files in the
/// subfolders of `target/deploy/` (`make all`; the files at its top are
/// the linker's own copies, not measured), under `target/sweep/` (`make
/// sweep`) and in each `make idl` run's `deploy/` folder under
/// `target/benches/idl/`.
pub fn built_programs(root: &Path) -> Vec<PathBuf> {
    let mut programs = Vec::new();
    let subfolders = |dir: PathBuf| -> Vec<PathBuf> {
        fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.is_dir())
                    .collect()
            })
            .unwrap_or_default()
    };
    for family in subfolders(root.join("target/deploy")) {
        collect_so(&family, &mut programs);
    }
    collect_so(&root.join("target/sweep"), &mut programs);
    for run in subfolders(root.join("target/benches/idl")) {
        collect_so(&run.join("deploy"), &mut programs);
    }
    programs.sort();
    programs
}

fn collect_so(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect_so(&path, out);
        } else if path.extension().is_some_and(|e| e == "so") {
            out.push(path);
        }
    }
}

fn is_path_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'/' | b'.' | b'_' | b'-' | b'+' | b'@' | b'~')
}

fn find_all(haystack: &[u8], needle: &[u8]) -> Vec<usize> {
    if needle.is_empty() || haystack.len() < needle.len() {
        return Vec::new();
    }
    (0..=haystack.len() - needle.len())
        .filter(|&at| &haystack[at..at + needle.len()] == needle)
        .collect()
}

/// The run of printable bytes around `at`, at most 160 characters.
fn printable_around(bytes: &[u8], at: usize) -> String {
    let printable = |b: u8| b.is_ascii_graphic() || b == b' ';
    let mut start = at;
    while start > 0 && printable(bytes[start - 1]) && at - start < 40 {
        start -= 1;
    }
    let mut end = at;
    while end < bytes.len() && printable(bytes[end]) && end - at < 120 {
        end += 1;
    }
    String::from_utf8_lossy(&bytes[start..end]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_killed_by_a_signal_is_a_btf_crash_and_a_link_error_is_not() {
        let crash = "   Compiling x\nerror: linking with `.tools/profile-linker/bin/sbpf-linker` failed: signal: 4 (SIGILL)\n  |\n";
        assert!(is_btf_crash(crash));
        assert!(is_btf_crash("LLVM ERROR: in BTFDebug::visitTypeEntry"));
        let refused = "error: linking with `sbpf-linker` failed: exit status: 1\n  = note: Error: BPF stack limit is exceeded";
        assert!(!is_btf_crash(refused));
    }

    #[test]
    fn a_named_folder_is_found_and_a_remapped_path_is_not() {
        let folders = vec!["/home/dev/.cargo/".to_string()];
        let bytes = b"\0\x01unwrap on None/home/dev/.cargo/registry/src/x-1.0/src/lib.rs\0";
        let found = absolute_paths(bytes, &folders);
        assert_eq!(
            found,
            ["unwrap on None/home/dev/.cargo/registry/src/x-1.0/src/lib.rs"]
        );
        let remapped = b"\0/cargo/registry/25cdd57fae9f0462/x-1.0/src/lib.rs\0/rustc/abc/library/core/src/panic.rs\0";
        assert!(absolute_paths(remapped, &folders).is_empty());
    }

    #[test]
    fn a_source_file_that_exists_here_is_found_wherever_it_lies() {
        let this_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/reproducible.rs");
        let mut bytes = b"\x07index out of bounds".to_vec();
        bytes.extend_from_slice(this_file.to_string_lossy().as_bytes());
        bytes.push(0);
        let found = absolute_paths(&bytes, &[]);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(
            found[0].ends_with("benches/src/reproducible.rs"),
            "{found:?}"
        );
        // The same path relative to the workspace is not absolute.
        assert!(absolute_paths(b"\0benches/src/reproducible.rs\0", &[]).is_empty());
    }
}
