//! `make sweep`: where the stack runs out. Builds and runs every crate
//! under programs/stack/ at every size, both ways, and writes
//! target/benches/sweep.md (also printed) and sweep.json.

use std::{fs, process::ExitCode};

use benches::{Workspace, sweep};

fn main() -> ExitCode {
    let workspace = Workspace::from_env();
    let points = match sweep::sweep(&workspace) {
        Ok(points) => points,
        Err(error) => {
            eprintln!("make sweep: {error}");
            return ExitCode::FAILURE;
        }
    };
    let markdown = sweep::markdown(&points);
    let dir = workspace.benches_dir();
    let written = fs::create_dir_all(&dir)
        .and_then(|()| fs::write(dir.join("sweep.md"), &markdown))
        .and_then(|()| {
            let json = serde_json::to_string_pretty(&points).expect("points serialize");
            fs::write(dir.join("sweep.json"), json + "\n")
        });
    if let Err(error) = written {
        eprintln!("make sweep: writing {}: {error}", dir.display());
        return ExitCode::FAILURE;
    }
    println!("{markdown}");
    ExitCode::SUCCESS
}
