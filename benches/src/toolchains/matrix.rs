//! The committed result of `make toolchains` (benches/toolchains.json):
//! each toolchain's versions and `.so` sizes, and every case's CUs on each.

use std::{collections::BTreeMap, path::Path};

use serde::{Deserialize, Serialize};

use super::install::Versions;
pub use crate::matrix::{Cell, MatrixRow, built, measured};

/// One toolchain's column.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ToolchainColumn {
    pub name: String,
    pub channel: String,
    #[serde(flatten)]
    pub versions: Versions,
    /// The flags the programs were built with (`.cargo/config.toml`'s,
    /// adapted to the toolchain).
    pub rustflags: String,
    /// The sBPF version in the ELFs it wrote (`V0`, `V3`).
    pub sbpf_arch: String,
    /// Per program label: `.so` bytes, or the build's error.
    pub programs: BTreeMap<String, Cell>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Matrix {
    /// The command that wrote it, and the commit it measured.
    pub command: String,
    pub commit: String,
    pub date: String,
    pub toolchains: Vec<ToolchainColumn>,
    /// Per row name (`Measurement::row`).
    pub rows: BTreeMap<String, MatrixRow>,
}

impl Matrix {
    /// Where the committed matrix lives, from the workspace root.
    pub const COMMITTED: &str = "benches/toolchains.json";

    pub fn read(path: &Path) -> Result<Self, String> {
        crate::matrix::read(path)
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        crate::matrix::write(self, path)
    }

    /// Each toolchain's name, in column order.
    pub fn names(&self) -> Vec<&str> {
        self.toolchains.iter().map(|c| c.name.as_str()).collect()
    }
}
