//! One Anchor 1.x program built with an earlier release's anchor-lang and
//! line tables, as `make profile`'s copies are: two releases' builds of
//! the same source, for `make profile SO= BASE=`'s known answer (the
//! change from 0.32.2 to 1.0.3, which the matrix measures, split by
//! frame). Each release's workspace is the matrix's
//! ([`super::prepare`]); its build folder is its own.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use super::{Release, prepare};

/// Where `release`'s copy of `program` (`token/account`) goes.
pub fn path(root: &Path, release: &Release, program: &str) -> PathBuf {
    release
        .dir(root)
        .join("profile/deploy/anchor1")
        .join(format!("{program}.so"))
}

/// Builds `release`'s copy of the Anchor 1.x program `program`
/// (`token/account`), with line tables; its path.
pub fn build(root: &Path, release: &Release, program: &str) -> Result<PathBuf, String> {
    let (group, _) = program
        .split_once('/')
        .ok_or_else(|| format!("{program}: give an Anchor 1.x program as <group>/<name>"))?;
    if let Some(why) = release.lacks(program) {
        return Err(why);
    }
    let copy = prepare::workspace(root, release)?;
    let dir = release.dir(root);
    let log = dir.join("profile-build.log");
    let output = Command::new(root.join("benches/build-programs.sh"))
        .arg(format!("anchor1/{group}"))
        .arg("")
        .arg(format!("programs/anchor1/{program}"))
        .current_dir(root)
        .env("SBF_TOOLCHAIN", "upstream")
        .env("FRAMEWORK_WORKSPACE", &copy)
        .env("PROFILE_BUILD", "1")
        .env("CARGO_TARGET_DIR", dir.join("profile-cargo"))
        .env("DEPLOY", dir.join("profile/deploy"))
        .env("BUILD_LOG", &log)
        .output()
        .map_err(|e| format!("benches/build-programs.sh: {e}"))?;
    let path = path(root, release, program);
    if !output.status.success() || !path.is_file() {
        return Err(format!(
            "anchor-lang {}: anchor1/{program} with line tables did not build (whole output: {}):\n{}",
            release.version,
            log.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(path)
}
