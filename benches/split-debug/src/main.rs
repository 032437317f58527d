//! `split-debug <linked .so> <deployed .so>`: writes the program without
//! its debug sections to `<deployed .so>` and, where it had any, the
//! linked file to `<deployed .so>.debug` (a stale one is removed where it
//! had none). The library says how.

use std::{fs, path::Path, process::ExitCode};

use split_debug::{Split, split};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [linked, deployed] = &args[..] else {
        eprintln!("usage: split-debug <linked .so> <deployed .so>");
        return ExitCode::from(2);
    };
    match run(Path::new(linked), Path::new(deployed)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("split-debug: {linked}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(linked: &Path, deployed: &Path) -> Result<(), String> {
    let elf = fs::read(linked).map_err(|e| e.to_string())?;
    let debug = deployed.with_extension("so.debug");
    match split(&elf).map_err(|e| e.to_string())? {
        Split::Plain => {
            fs::write(deployed, &elf).map_err(|e| format!("{}: {e}", deployed.display()))?;
            match fs::remove_file(&debug) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    Err(format!("{}: {e}", debug.display()))
                }
                _ => Ok(()),
            }
        }
        Split::Stripped(program) => {
            fs::write(deployed, program).map_err(|e| format!("{}: {e}", deployed.display()))?;
            fs::write(&debug, &elf).map_err(|e| format!("{}: {e}", debug.display()))
        }
    }
}
