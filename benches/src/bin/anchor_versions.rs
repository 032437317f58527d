//! `make anchor-versions`: the Anchor 1.x programs built and measured with
//! every anchor-lang release of the matrix (or those `ANCHOR_VERSIONS`
//! names, keeping the committed columns of the others), into
//! target/benches/anchor_versions.{json,md}. `baseline`: the same, then
//! benches/anchor_versions.json and each release's lockfile rewritten.
//! `report`: the report again from the committed file. `copies`:
//! `anchor1/token/account` built with line tables on each release
//! `ANCHOR_VERSIONS` names (0.32.2 and 1.0.3 unless it names others), for
//! `make profile SO= BASE=`'s known answer.

use std::{fs, process::ExitCode, time::Instant};

use benches::{
    Workspace,
    anchor_versions::{self, RELEASES, matrix::Matrix, prepare, report},
};

fn main() -> ExitCode {
    let mode = std::env::args().nth(1);
    let target = match mode.as_deref() {
        Some("baseline") => "anchor-versions-baseline",
        Some("report") => "anchor-versions-report",
        Some("copies") => "anchor-copies",
        _ => "anchor-versions",
    };
    match run(mode.as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("make {target}: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(mode: Option<&str>) -> Result<(), String> {
    let root = Workspace::from_env().root;
    let committed = root.join(Matrix::COMMITTED);
    let matrix = match mode {
        Some("report") => Matrix::read(&committed)?,
        None | Some("baseline") => {
            let start = Instant::now();
            let progress = |step: &str| println!("[{} s] {step}", start.elapsed().as_secs());
            let only: Vec<String> = std::env::var("ANCHOR_VERSIONS")
                .unwrap_or_default()
                .split_whitespace()
                .map(String::from)
                .collect();
            let previous = if only.is_empty() {
                None
            } else {
                Some(Matrix::read(&committed)?)
            };
            let matrix = anchor_versions::run(&root, &only, previous, &progress)?;
            matrix.write(&root.join(Matrix::RUN))?;
            if mode == Some("baseline") {
                matrix.write(&committed)?;
                for release in RELEASES
                    .iter()
                    .filter(|r| r.version != anchor_versions::PINNED)
                {
                    let built = prepare::lock_path(&root, release);
                    let Ok(lock) = fs::read(&built) else { continue };
                    let keep =
                        benches::frameworks::anchor1::releases::committed_lock(&root, release);
                    fs::create_dir_all(keep.parent().expect("a folder"))
                        .and_then(|()| fs::write(&keep, lock))
                        .map_err(|e| format!("{}: {e}", keep.display()))?;
                }
                println!(
                    "wrote {} and benches/anchor_versions/<release>.lock; commit them with the change",
                    Matrix::COMMITTED
                );
            }
            matrix
        }
        Some("copies") => {
            let named = std::env::var("ANCHOR_VERSIONS").unwrap_or_default();
            let versions: Vec<&str> = match named.split_whitespace().collect::<Vec<_>>() {
                none if none.is_empty() => anchor_versions::copies::RELEASES.to_vec(),
                some => some,
            };
            for version in versions {
                let release = RELEASES
                    .iter()
                    .find(|r| r.version == version)
                    .ok_or_else(|| {
                        format!("ANCHOR_VERSIONS names {version}, not a release of the matrix")
                    })?;
                let path = anchor_versions::copies::build(&root, release, "token/account")?;
                println!(
                    "make anchor-copies: anchor-lang {version}: {}",
                    path.display()
                );
            }
            return Ok(());
        }
        Some(other) => {
            return Err(format!(
                "unknown mode `{other}`: none, baseline, report or copies"
            ));
        }
    };
    let out = root.join("target/benches/anchor_versions.md");
    fs::create_dir_all(out.parent().expect("a folder"))
        .and_then(|()| fs::write(&out, report::markdown(&matrix)))
        .map_err(|e| format!("{}: {e}", out.display()))?;
    println!("wrote {}", out.display());
    Ok(())
}
