//! `make wire`: the wire report into target/benches/. Run it in release
//! (the Makefile does): the timings are the client's.

use std::{process::ExitCode, time::Instant};

use benches::Workspace;
use wire::timing::{Budget, Timer};

fn main() -> ExitCode {
    let workspace = Workspace::from_env();
    let home = workspace.root.join("target/criterion");
    // SAFETY: single-threaded here, before criterion reads it (once, on
    // first use); nothing else reads the environment concurrently.
    unsafe { std::env::set_var("CRITERION_HOME", &home) };
    let started = Instant::now();
    let mut timer = Timer::new(&home, Budget::REPORT);
    match wire::run(&workspace, &mut timer, &workspace.benches_dir()) {
        Ok(report) => {
            println!("{}", report.markdown());
            println!(
                "make wire: wrote target/benches/wire.md, wire.json, wire_sizes.svg and wire_ratios.svg in {:.0} s",
                started.elapsed().as_secs_f64()
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("make wire: {message}");
            ExitCode::FAILURE
        }
    }
}
