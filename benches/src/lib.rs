//! The harness: finds the programs under `programs/`, turns every benchmark
//! and test into a [`Case`] (data, not code per crate), runs cases through
//! Mollusk and checks each result against the contract before any number is
//! reported.

pub mod anchor_versions;
pub mod baseline;
pub mod bench;
pub mod build_error;
pub mod case;
pub mod committed;
pub mod compare;
pub mod error;
pub mod exported;
pub mod families;
pub mod files;
pub mod framework;
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
pub mod section_names;
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
