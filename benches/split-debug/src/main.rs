//! `split-debug <linked .so> <deployed .so>`: writes the program without
//! its debug sections to `<deployed .so>` and, where it had any, the
//! linked file beside it as `<deployed .so>.debug` ([`split_debug::write`]).

use std::{path::Path, process::ExitCode};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [linked, deployed] = &args[..] else {
        eprintln!("usage: split-debug <linked .so> <deployed .so>");
        return ExitCode::from(2);
    };
    match split_debug::write(Path::new(linked), Path::new(deployed)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("split-debug: {linked}: {e}");
            ExitCode::FAILURE
        }
    }
}
