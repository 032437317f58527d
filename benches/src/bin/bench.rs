//! `make bench`. Prints the summary, or one line saying what is wrong and
//! what to do, with a non-zero exit.

use std::process::ExitCode;

use benches::{Workspace, bench};

fn main() -> ExitCode {
    match bench::run(&Workspace::from_env()) {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("make bench: {error}");
            ExitCode::FAILURE
        }
    }
}
