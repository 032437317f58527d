//! The harness: finds the programs under `programs/`, turns every benchmark
//! and test into a [`Case`] (data, not code per crate), runs cases through
//! Mollusk and checks each result against the contract before any number is
//! reported.

pub mod anchor_versions;
pub mod baseline;
pub mod bench;
pub mod build_error;
pub mod case;
pub mod error;
pub mod exported;
pub mod families;
pub mod files;
pub mod frameworks;
pub mod hostile;
pub mod inspect;
pub mod lock;
pub mod mainnet;
pub mod matrix;
pub mod message;
pub mod metadata;
pub mod numbers;
pub mod profile;
pub mod program;
pub mod provenance;
pub mod report;
pub mod reproducible;
pub mod scaffold;
pub mod sweep;
pub mod token;
pub mod toolchains;
pub mod trace;
pub mod vm;
pub mod workspace;

pub use case::{Case, Emitted, Expected, Input};
pub use error::HarnessError;
pub use program::{Family, Framework, Program, Shape};
pub use workspace::Workspace;

// Depended on for its features only (benches/workspace-hack/Cargo.toml).
use workspace_hack as _;

/// The wire report `docs/wire.md` quotes, committed: `make wire-baseline`
/// writes it from a run (the `wire` crate's command).
pub const WIRE_REPORT: &str = "benches/wire/wire.md";

/// The blocks the docs quote from results committed beside the code (the
/// toolchain matrix, the Anchor release matrix, the stack sweep, the wire
/// report), for `report::docs`.
pub fn committed_doc_blocks(
    root: &std::path::Path,
) -> Result<std::collections::BTreeMap<String, String>, String> {
    let mut blocks = toolchains::report::doc_blocks(root)?;
    blocks.extend(anchor_versions::report::doc_blocks(root)?);
    blocks.extend(report::docs::committed_report(
        root,
        sweep::COMMITTED,
        "sweep",
        "make sweep-baseline",
    )?);
    blocks.extend(report::docs::committed_report(
        root,
        WIRE_REPORT,
        "wire",
        "make wire-baseline",
    )?);
    Ok(blocks)
}
