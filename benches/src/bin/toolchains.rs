//! `make toolchains`: install, build and measure every toolchain of the
//! matrix (or those `TOOLCHAINS` names, keeping the others' columns),
//! write benches/toolchains.json and target/benches/toolchains.md.
//! `make toolchains-report`: the report again from the committed file.

use std::{fs, process::ExitCode, time::Instant};

use benches::{
    Workspace,
    toolchains::{self, matrix::Matrix},
};

fn main() -> ExitCode {
    match run(std::env::args().nth(1).as_deref()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("make toolchains: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(mode: Option<&str>) -> Result<(), String> {
    let workspace = Workspace::from_env();
    let committed = workspace.root.join(Matrix::COMMITTED);
    let matrix = match mode {
        None => {
            let start = Instant::now();
            let progress = |step: &str| println!("[{} s] {step}", start.elapsed().as_secs());
            // TOOLCHAINS="llvm22 llvm23": measure those again, keep the rest.
            let only: Vec<String> = std::env::var("TOOLCHAINS")
                .unwrap_or_default()
                .split_whitespace()
                .map(String::from)
                .collect();
            let previous = if only.is_empty() {
                None
            } else {
                Matrix::read(&committed).ok()
            };
            let matrix = toolchains::run(&workspace, &only, previous, &progress)?;
            matrix.write(&committed)?;
            println!("wrote benches/toolchains.json; commit it with the change");
            matrix
        }
        Some("report") => Matrix::read(&committed)?,
        Some(other) => {
            return Err(format!(
                "unknown mode `{other}`; use no argument or `report`"
            ));
        }
    };
    let report = toolchains::report::markdown(&matrix);
    let out = workspace.benches_dir();
    fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    fs::write(out.join("toolchains.md"), &report)
        .map_err(|e| format!("writing target/benches/toolchains.md: {e}"))?;
    println!("wrote target/benches/toolchains.md");
    Ok(())
}
