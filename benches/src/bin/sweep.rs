//! `make sweep`: where the stack runs out. Builds and runs every crate
//! under programs/stack/ at every size, both ways, and writes
//! target/benches/sweep.md (also printed) and sweep.json; `make
//! sweep-baseline` (argument `baseline`) also writes the table the docs
//! quote into benches/sweep.md.

use std::{fs, process::ExitCode};

use benches::{Workspace, sweep};

fn main() -> ExitCode {
    let workspace = Workspace::from_env();
    let baseline = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("baseline") => true,
        Some(other) => {
            eprintln!("make sweep: unknown mode `{other}`; use no argument or `baseline`");
            return ExitCode::FAILURE;
        }
    };
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
        })
        .and_then(|()| {
            if baseline {
                fs::write(workspace.root.join(sweep::COMMITTED), &markdown)
            } else {
                Ok(())
            }
        });
    if let Err(error) = written {
        eprintln!("make sweep: writing {}: {error}", dir.display());
        return ExitCode::FAILURE;
    }
    println!("{markdown}");
    if baseline {
        println!("make sweep-baseline: wrote {}: commit it", sweep::COMMITTED);
    }
    ExitCode::SUCCESS
}
