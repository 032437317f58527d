//! `make new-program NAME=<crate>`.

use std::process::ExitCode;

use benches::{Workspace, scaffold};

fn main() -> ExitCode {
    let name = std::env::args().nth(1).unwrap_or_default();
    match scaffold::new_program(&Workspace::from_env(), &name) {
        Ok(_) => {
            println!(
                "created programs/{name}: follow the CHANGE comments in its Cargo.toml and src/lib.rs, then make test && make bench"
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("make new-program: {message}");
            ExitCode::FAILURE
        }
    }
}
