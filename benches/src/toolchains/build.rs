//! Builds every program with one toolchain, through the same script as
//! `make all` (benches/build-programs.sh), into the toolchain's own folder.
//! A program that does not build is a result, with the compiler's error.

use std::{collections::BTreeMap, fs, path::Path, process::Command};

use super::{Toolchain, matrix::Cell};
use crate::{Program, Workspace, program::read_toml};

/// Per program label: its `.so` size, or why it did not build.
pub type Built = BTreeMap<String, Cell>;

/// The SBF flags of `.cargo/config.toml`, with `--arch` as the toolchain
/// wants it (replaced, or removed where its linker has no such flag),
/// without `--deploy=false` for the 0.1.x linkers, and without the
/// misaligned-access feature where its LLVM lacks it.
pub fn rustflags(root: &Path, toolchain: &Toolchain) -> Result<Vec<String>, String> {
    let config = read_toml(&root.join(".cargo/config.toml"));
    let flags = config
        .get("target")
        .and_then(|t| t.get("bpfel-unknown-none"))
        .and_then(|t| t.get("rustflags"))
        .and_then(|f| f.as_array())
        .ok_or(".cargo/config.toml has no [target.bpfel-unknown-none] rustflags")?;
    let mut out: Vec<String> = Vec::new();
    for flag in flags {
        let flag = flag.as_str().ok_or("a rustflag that is not a string")?;
        if flag.starts_with("link-arg=--arch=") {
            // Drop the `-C` before it too; then add the toolchain's own.
            out.pop();
            if let Some(arch) = toolchain.arch {
                out.extend(["-C".into(), format!("link-arg=--arch={arch}")]);
            }
        } else if flag == "target-feature=+allows-misaligned-mem-access" && !toolchain.misaligned {
            out.pop();
        } else if flag == "link-arg=--deploy=false" && toolchain.arch.is_none() {
            // The 0.1.x linkers (no `--arch`) are not given 0.2's flags.
            out.pop();
        } else {
            out.push(flag.to_string());
        }
    }
    Ok(out)
}

/// Builds each of `programs` (and the floor) with `toolchain`.
pub fn build_all(
    workspace: &Workspace,
    toolchain: &Toolchain,
    programs: &[Program],
    progress: &dyn Fn(&str),
) -> Result<Built, String> {
    let root = &workspace.root;
    let out = toolchain.out_dir(root);
    let deploy = out.join("deploy");
    fs::create_dir_all(&deploy).map_err(|e| format!("{}: {e}", deploy.display()))?;
    let log = out.join("build.log");
    fs::write(&log, "").map_err(|e| format!("{}: {e}", log.display()))?;
    let flags = rustflags(root, toolchain)?.join("\u{1f}");
    let mut built = Built::new();
    for program in programs {
        let folder = program
            .so_path
            .parent()
            .and_then(|p| p.strip_prefix(workspace.deploy_dir()).ok())
            .ok_or("a program outside the deploy folder")?;
        let dir = program.dir.strip_prefix(root).unwrap_or(&program.dir);
        let result = Command::new(root.join("benches/build-programs.sh"))
            .arg(folder)
            .arg(program.shape.features())
            .arg(dir)
            .current_dir(root)
            .env("SBF_TOOLCHAIN", "upstream")
            .env("RUSTUP_TOOLCHAIN", toolchain.channel)
            .env(
                "CARGO_TARGET_BPFEL_UNKNOWN_NONE_LINKER",
                toolchain.linker(root),
            )
            .env("CARGO_ENCODED_RUSTFLAGS", &flags)
            // Its own linker and flags: not `.cargo/line-tables.toml`'s,
            // whose `--config` would outrank the linker named above.
            .env("LINE_TABLES", "0")
            .env("CARGO_TARGET_DIR", out.join("cargo"))
            .env("DEPLOY", &deploy)
            .env("BUILD_LOG", &log)
            .output()
            .map_err(|e| format!("benches/build-programs.sh: {e}"))?;
        let stderr = String::from_utf8_lossy(&result.stderr);
        let size = fs::metadata(deploy.join(folder).join(format!("{}.so", program.name)));
        let outcome =
            match (result.status.success(), size) {
                (true, Ok(meta)) => Ok(meta.len()),
                // Paths relative to the workspace: the committed file is
                // the same on every machine.
                _ => Err(crate::build_error::error_of(&stderr)
                    .replace(&format!("{}/", root.display()), "")),
            };
        progress(&format!(
            "{} {}: {}",
            toolchain.name,
            program.label(),
            match &outcome {
                Ok(bytes) => format!("{bytes} bytes"),
                Err(e) => format!("failed: {}", e.lines().next().unwrap_or_default()),
            }
        ));
        built.insert(program.label(), outcome.into());
    }
    Ok(built)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolchains::TOOLCHAINS;

    #[test]
    fn each_linker_gets_the_flags_it_has() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let flags = |name: &str| {
            let toolchain = TOOLCHAINS.iter().find(|t| t.name == name).unwrap();
            rustflags(&root, toolchain).unwrap()
        };
        let has = |flags: &[String], flag: &str| flags.iter().any(|f| f == flag);
        let old = flags("llvm21");
        assert!(
            !old.iter().any(|f| f.starts_with("link-arg=--arch")),
            "{old:?}"
        );
        assert!(!has(&old, "link-arg=--deploy=false"), "{old:?}");
        assert!(!has(&old, "target-feature=+allows-misaligned-mem-access"));
        let own = flags("llvm23-v3");
        assert!(has(&own, "link-arg=--arch=v3"), "{own:?}");
        assert!(has(&own, "link-arg=--deploy=false"), "{own:?}");
        // Every flag keeps its `-C` (or `-Z`) before it.
        for flags in [&old, &own] {
            for pair in flags.chunks(2) {
                assert!(["-C", "-Z"].contains(&pair[0].as_str()), "{flags:?}");
            }
        }
    }
}
