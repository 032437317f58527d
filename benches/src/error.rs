//! The harness's own failures, before or while running a program: each
//! names the program and says what to do.

use std::path::PathBuf;

/// A failure of the harness itself, before or while running a program.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HarnessError {
    #[error("no programs found under {0}")]
    NoPrograms(PathBuf),
    #[error("program `{program}`: {path} is missing; run `make all`")]
    Missing { program: String, path: PathBuf },
    #[error("program `{program}`: {path} is older than {source_file}; run `make all`")]
    Stale {
        program: String,
        path: PathBuf,
        source_file: PathBuf,
    },
    #[error(
        "program `{program}`: {path} is not a loadable sBPF program ({reason}); run `make all`"
    )]
    Invalid {
        program: String,
        path: PathBuf,
        reason: String,
    },
    #[error(
        "program `{program}`: no host codec to compute expected bytes; add `{name}` to HOST_FORMATS in common/src/{family}/formats.rs"
    )]
    NoHostCodec {
        program: String,
        family: &'static str,
        name: String,
    },
    #[error(
        "program `{program}`: {path} names an unknown token encoding `{encoding}`; use one of {known}, or add it to Encoding in benches/src/program.rs (its bytes in benches/src/token/record.rs)"
    )]
    UnknownEncoding {
        program: String,
        path: PathBuf,
        encoding: String,
        known: String,
    },
    #[error("{0}")]
    Report(String),
    #[error("program `{program}`, operation `{operation}`: {detail}")]
    WrongResult {
        program: String,
        operation: String,
        detail: String,
    },
}
