//! A release's own workspace: `programs/anchor1/` copied to
//! `target/anchor-versions/<release>/workspace/` with anchor-lang pinned
//! to the release, the programs its API lacks left out, and its committed
//! lockfile (`benches/anchor_versions/<release>.lock`) where there is one.
//! Files are rewritten only where they differ, so that cargo builds
//! nothing again when nothing changed.

use std::{
    fs,
    path::{Path, PathBuf},
};

use super::Release;
use crate::frameworks::anchor1::releases::committed_lock;

/// The pin in `programs/anchor1/Cargo.toml` that each copy rewrites.
const PIN: &str = "anchor-lang = { version = \"=1.2.2\" }";
const RECORDS: &str = "anchor1-records = { path = \"records\" }";

/// The copy's lockfile, as cargo resolved or kept it.
pub fn lock_path(root: &Path, release: &Release) -> PathBuf {
    release.dir(root).join("workspace/Cargo.lock")
}

fn write_if_changed(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if fs::read(path).ok().as_deref() == Some(bytes) {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    fs::write(path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Copies every file under `from` but `target/` and `Cargo.lock` to `to`.
fn copy_tree(from: &Path, to: &Path, top: bool) -> Result<(), String> {
    let entries = fs::read_dir(from).map_err(|e| format!("{}: {e}", from.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name();
        if top && (name == "target" || name == "Cargo.lock") {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            copy_tree(&path, &to.join(&name), false)?;
        } else {
            let bytes = fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            write_if_changed(&to.join(&name), &bytes)?;
        }
    }
    Ok(())
}

/// The workspace manifest for `release`: the same but the pin, the
/// members the release can build, and borsh 0.10's counting.
pub fn manifest(original: &str, release: &Release, members: &[String]) -> Result<String, String> {
    if !original.contains(PIN) || !original.contains(RECORDS) {
        return Err(format!(
            "programs/anchor1/Cargo.toml no longer holds `{PIN}` and `{RECORDS}`: update benches/src/anchor_versions/prepare.rs to the new pin"
        ));
    }
    let mut text = original.replace(
        PIN,
        &format!("anchor-lang = {{ version = \"={}\" }}", release.version),
    );
    if release.borsh_0_10 {
        text = text.replace(
            RECORDS,
            "anchor1-records = { path = \"records\", features = [\"borsh-0-10\"] }",
        );
    }
    let line = text
        .lines()
        .find(|l| l.starts_with("members = "))
        .ok_or("programs/anchor1/Cargo.toml has no `members = [...]` line")?
        .to_string();
    let listed = members
        .iter()
        .map(|m| format!("\"{m}\""))
        .collect::<Vec<_>>()
        .join(", ");
    Ok(text.replace(&line, &format!("members = [{listed}]")))
}

/// Writes the release's workspace and returns its folder.
pub fn workspace(root: &Path, release: &Release) -> Result<PathBuf, String> {
    let source = root.join("programs/anchor1");
    let copy = release.dir(root).join("workspace");
    copy_tree(&source, &copy, true)?;
    // Every program folder the release can build, and the shared crates.
    let mut members = Vec::new();
    for group in ["token", "metadata"] {
        let mut names: Vec<String> = fs::read_dir(source.join(group))
            .map_err(|e| format!("programs/anchor1/{group}: {e}"))?
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("Cargo.toml").is_file())
            .map(|e| format!("{group}/{}", e.file_name().to_string_lossy()))
            .filter(|name| release.lacks(name).is_none())
            .collect();
        names.sort();
        members.extend(names);
    }
    members.extend(["noop".to_string(), "records".to_string()]);
    let original = fs::read_to_string(source.join("Cargo.toml"))
        .map_err(|e| format!("programs/anchor1/Cargo.toml: {e}"))?;
    write_if_changed(
        &copy.join("Cargo.toml"),
        manifest(&original, release, &members)?.as_bytes(),
    )?;
    // The committed lock where there is one; otherwise cargo resolves one
    // on the first build, and `make anchor-versions-baseline` commits it.
    if let Ok(lock) = fs::read(committed_lock(root, release)) {
        write_if_changed(&copy.join("Cargo.lock"), &lock)?;
    }
    Ok(copy)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anchor_versions::RELEASES;

    #[test]
    fn a_manifest_pins_the_release_and_its_members() {
        let original = format!(
            "[workspace]\nmembers = [\"token/*\", \"noop\"]\n\n[workspace.dependencies]\n{PIN}\n{RECORDS}\n"
        );
        let old = RELEASES[0];
        let text = manifest(&original, &old, &["token/account".into(), "noop".into()]).unwrap();
        assert!(
            text.contains("anchor-lang = { version = \"=0.29.0\" }"),
            "{text}"
        );
        assert!(text.contains("features = [\"borsh-0-10\"]"), "{text}");
        assert!(
            text.contains("members = [\"token/account\", \"noop\"]"),
            "{text}"
        );
        let new = RELEASES[RELEASES.len() - 1];
        let text = manifest(&original, &new, &["noop".into()]).unwrap();
        assert!(text.contains(PIN) && text.contains(RECORDS), "{text}");
        let err = manifest("members = []", &new, &[]).unwrap_err();
        assert!(err.contains("no longer holds"), "{err}");
    }
}
