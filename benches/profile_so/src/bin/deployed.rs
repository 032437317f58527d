//! `make deployed`: Token-2022 7.0.0 as mainnet runs it against the same
//! source built by this project's route (`make published`), on the same
//! calls; the table into `target/benches/deployed/summary.md`, both
//! builds' comparison into `target/benches/profile/spl_token_2022/diff/`;
//! `DOCS=1` writes the run's figures into the README and docs/toolchain.md.

use std::process::ExitCode;

use benches::Workspace;
use profile_so::deployed;

fn main() -> ExitCode {
    let workspace = Workspace::from_env();
    match deployed::run(&workspace) {
        Ok(found) => {
            println!("{}", deployed::summary(&found));
            println!(
                "written: {}",
                deployed::out_dir(&workspace).join("summary.md").display()
            );
            let write = !matches!(std::env::var("DOCS").as_deref(), Err(_) | Ok("" | "0"));
            match deployed::docs(&workspace.root, &found, write) {
                Ok(differs) if differs.is_empty() => {}
                Ok(differs) if write => println!("make deployed: rewrote {}", differs.len()),
                Ok(differs) => println!(
                    "make deployed: the docs' figures differ from this run ({}); make deployed DOCS=1 rewrites them",
                    differs.join("; ")
                ),
                Err(error) => {
                    eprintln!("make deployed: {error}");
                    return ExitCode::FAILURE;
                }
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("make deployed: {error}");
            ExitCode::FAILURE
        }
    }
}
