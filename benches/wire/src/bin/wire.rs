//! `make wire`: the wire report into target/benches/. `make wire-baseline`
//! (argument `baseline`) also writes the charts the README shows and the
//! report `docs/wire.md` quotes into benches/wire/. The crates the timings run are optimized in the dev
//! profile (root Cargo.toml).

use std::{process::ExitCode, time::Instant};

use benches::Workspace;
use wire::timing::{Budget, Timer};

fn main() -> ExitCode {
    let workspace = Workspace::from_env();
    let home = workspace.root.join("target/criterion");
    // SAFETY: single-threaded here, before criterion reads it (once, on
    // first use); nothing else reads the environment concurrently.
    unsafe { std::env::set_var("CRITERION_HOME", &home) };
    let baseline = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("baseline") => true,
        Some(other) => {
            eprintln!("wire: unknown mode `{other}`; use no argument or `baseline`");
            return ExitCode::FAILURE;
        }
    };
    let started = Instant::now();
    let mut timer = Timer::new(&home, Budget::REPORT);
    let out = workspace.benches_dir();
    let copied = wire::run(&workspace, &mut timer, &out).and_then(|report| {
        if baseline {
            for chart in ["wire_sizes.svg", "wire_ratios.svg"] {
                let to = workspace.root.join("benches/wire").join(chart);
                std::fs::copy(out.join(chart), &to)
                    .map_err(|e| format!("writing {}: {e}", to.display()))?;
            }
            let to = workspace.root.join(benches::committed::WIRE_REPORT);
            std::fs::write(&to, report.markdown())
                .map_err(|e| format!("writing {}: {e}", to.display()))?;
        }
        Ok(report)
    });
    match copied {
        Ok(report) => {
            println!("{}", report.markdown());
            println!(
                "make wire: wrote target/benches/wire.md, wire.json, wire_sizes.svg and wire_ratios.svg in {:.0} s{}",
                started.elapsed().as_secs_f64(),
                if baseline {
                    "; and the charts and wire.md into benches/wire/: commit them"
                } else {
                    ""
                }
            );
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("make wire: {message}");
            ExitCode::FAILURE
        }
    }
}
