//! Installs a toolchain the way `make setup` installs the default one:
//! the nightly with `rust-src` through rustup, its `sbpf-linker` with cargo
//! into `.tools/`, each skipped when already there.

use std::{
    path::Path,
    process::{Command, Output},
};

use super::Toolchain;

/// What `rustc -vV` and the linker say they are.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Versions {
    /// `release (commit date)`, e.g. `1.92.0-nightly (fa3155a64 2025-09-30)`.
    pub rustc: String,
    /// `LLVM version:` from `rustc -vV`.
    pub llvm: String,
    /// `sbpf-linker --version`.
    pub linker: String,
}

/// stdout of a command that must succeed, or what it printed on failure.
fn output(command: &mut Command, what: &str) -> Result<String, String> {
    let Output {
        status,
        stdout,
        stderr,
    } = command
        .output()
        .map_err(|e| format!("{what}: could not start: {e}"))?;
    if status.success() {
        Ok(String::from_utf8_lossy(&stdout).into_owned())
    } else {
        let stderr = String::from_utf8_lossy(&stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(15).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        Err(format!("{what} failed ({status}):\n{}", tail.join("\n")))
    }
}

fn rustc_versions(channel: &str) -> Result<(String, String), String> {
    let text = output(
        Command::new("rustup").args(["run", channel, "rustc", "-vV"]),
        &format!("rustup run {channel} rustc -vV"),
    )?;
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .map(str::trim)
            .map(String::from)
            .ok_or_else(|| format!("rustc -vV of {channel} prints no `{name}`"))
    };
    let release = field("release:")?;
    let hash = field("commit-hash:")?;
    let date = field("commit-date:")?;
    Ok((
        format!("{release} ({} {date})", &hash[..hash.len().min(9)]),
        field("LLVM version:")?,
    ))
}

/// Installs what is missing and says what is there; `progress` is told
/// before each slow step.
pub fn install(
    toolchain: &Toolchain,
    root: &Path,
    progress: &dyn Fn(&str),
) -> Result<Versions, String> {
    if rustc_versions(toolchain.channel).is_err() {
        progress(&format!("installing {} with rust-src", toolchain.channel));
        output(
            Command::new("rustup").args([
                "toolchain",
                "install",
                toolchain.channel,
                "--profile",
                "minimal",
                "--component",
                "rust-src",
            ]),
            &format!("rustup toolchain install {}", toolchain.channel),
        )?;
    }
    let (rustc, llvm) = rustc_versions(toolchain.channel)?;
    let linker = toolchain.linker(root);
    let want = format!("sbpf-linker {}", toolchain.linker_version);
    // 0.1.9 prints its version through its error path (exit 1): read the
    // line wherever it is.
    let installed = |linker: &Path| {
        let out = Command::new(linker)
            .arg("--version")
            .output()
            .map_err(|e| format!("{}: {e}", linker.display()))?;
        [out.stdout, out.stderr]
            .iter()
            .flat_map(|text| {
                String::from_utf8_lossy(text)
                    .lines()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            })
            .map(|line| line.trim_start_matches("Error: ").trim().to_string())
            .find(|line| line.starts_with("sbpf-linker "))
            .ok_or_else(|| format!("{} --version names no sbpf-linker", linker.display()))
    };
    if installed(&linker).ok().as_deref() != Some(want.as_str()) {
        progress(&format!(
            "compiling sbpf-linker {} with {} (about 2 minutes)",
            toolchain.linker_version, toolchain.channel
        ));
        // Built by the nightly whose LLVM it will load at link time.
        output(
            Command::new("cargo")
                .arg(format!("+{}", toolchain.channel))
                .args(["install", "--locked", "--root"])
                .arg(toolchain.linker_root(root))
                .arg(format!("sbpf-linker@{}", toolchain.linker_version))
                .current_dir(root),
            &format!("cargo install sbpf-linker@{}", toolchain.linker_version),
        )?;
    }
    Ok(Versions {
        rustc,
        llvm,
        linker: installed(&linker)?,
    })
}
