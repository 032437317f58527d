//! One Anchor 1.x program built with an earlier release's anchor-lang,
//! its `.so.debug` beside it as `make all` builds every program: two
//! releases' builds of the same source, for `make profile SO= BASE=`'s
//! known answer (the change from 0.32.2 to 1.0.3, which the matrix
//! measures, split by frame). Each release's workspace and deploy folder
//! are the matrix's ([`super::prepare`]), and so is where cargo builds it
//! ([`super::target_dir`]), so `make anchor-versions` after it builds
//! that program again in no time.

use std::{
    path::{Path, PathBuf},
    process::Command,
};

use super::{Release, prepare};

/// The releases `make anchor-copies` builds unless `ANCHOR_VERSIONS` names
/// others, in order: the base and the new build of the known answer.
pub const RELEASES: [&str; 2] = ["0.32.2", "1.0.3"];

/// Where `release`'s build of `program` (`token/account`) goes.
pub fn path(root: &Path, release: &Release, program: &str) -> PathBuf {
    release
        .dir(root)
        .join("deploy/anchor1")
        .join(format!("{program}.so"))
}

/// Builds `release`'s Anchor 1.x program `program` (`token/account`),
/// with its `.so.debug`; its path.
pub fn build(root: &Path, release: &Release, program: &str) -> Result<PathBuf, String> {
    let (group, _) = program
        .split_once('/')
        .ok_or_else(|| format!("{program}: give an Anchor 1.x program as <group>/<name>"))?;
    if let Some(why) = release.lacks(program) {
        return Err(why);
    }
    let copy = prepare::workspace(root, release)?;
    let dir = release.dir(root);
    let log = dir.join("build.log");
    let output = Command::new(root.join("benches/build-programs.sh"))
        .arg(format!("anchor1/{group}"))
        .arg("")
        .arg(format!("programs/anchor1/{program}"))
        .current_dir(root)
        .env("SBF_TOOLCHAIN", "upstream")
        .env("FRAMEWORK_WORKSPACE", &copy)
        .env("CARGO_TARGET_DIR", super::target_dir(root, release))
        .env("DEPLOY", dir.join("deploy"))
        .env("BUILD_LOG", &log)
        .output()
        .map_err(|e| format!("benches/build-programs.sh: {e}"))?;
    let path = path(root, release, program);
    if !output.status.success() || !path.is_file() {
        return Err(format!(
            "anchor-lang {}: anchor1/{program} did not build (whole output: {}):\n{}",
            release.version,
            log.display(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    Ok(path)
}
