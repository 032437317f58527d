//! `make new-program FAMILY=<family> NAME=<crate>`.

use std::process::ExitCode;

use benches::{Workspace, scaffold};

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let family = args.next().unwrap_or_default();
    let name = args.next().unwrap_or_default();
    let created = scaffold::family(&family)
        .and_then(|family| scaffold::new_program(&Workspace::from_env(), family, &name));
    match created {
        Ok(dir) => {
            println!(
                "created {}: follow the CHANGE comments in its Cargo.toml and src/lib.rs, then make test && make bench",
                dir.display()
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("make new-program: {message}");
            ExitCode::FAILURE
        }
    }
}
