//! The committed result of `make toolchains` (benches/toolchains.json):
//! each toolchain's versions and `.so` sizes, and every case's CUs on each.

use std::{collections::BTreeMap, fs, path::Path};

use serde::{Deserialize, Serialize};

use super::install::Versions;

/// A cell: the CUs, or why there are none (a build, load or contract
/// failure, with its error).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Cell {
    Cus(u64),
    Failed(String),
}

impl Cell {
    pub fn cus(&self) -> Option<u64> {
        match self {
            Self::Cus(cus) => Some(*cus),
            Self::Failed(_) => None,
        }
    }
}

impl From<Result<u64, String>> for Cell {
    fn from(result: Result<u64, String>) -> Self {
        result.map_or_else(Self::Failed, Self::Cus)
    }
}

/// How many of a column's programs built.
pub fn built(programs: &BTreeMap<String, Cell>) -> usize {
    programs.values().filter(|c| c.cus().is_some()).count()
}

/// How many of `rows` have CUs in `column`.
pub fn measured<'a>(rows: impl IntoIterator<Item = &'a Row>, column: &str) -> usize {
    rows.into_iter()
        .filter(|r| r.cells.get(column).and_then(Cell::cus).is_some())
        .count()
}

/// One toolchain's column.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Column {
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

/// One benchmark case across toolchains.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Row {
    pub family: String,
    /// The crate or format (the program's folder).
    pub program: String,
    pub operation: String,
    /// What else tells rows of an operation apart: the token family's
    /// shape, the message size, the metadata instance.
    pub group: String,
    /// Per toolchain name.
    pub cells: BTreeMap<String, Cell>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Matrix {
    /// The command that wrote it, and the commit it measured.
    pub command: String,
    pub commit: String,
    pub date: String,
    pub toolchains: Vec<Column>,
    /// Per row name (`Measurement::row`).
    pub rows: BTreeMap<String, Row>,
}

impl Matrix {
    /// Where the committed matrix lives, from the workspace root.
    pub const COMMITTED: &str = "benches/toolchains.json";

    pub fn read(path: &Path) -> Result<Self, String> {
        let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).expect("JSON") + "\n";
        fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// Each toolchain's name, in column order.
    pub fn names(&self) -> Vec<&str> {
        self.toolchains.iter().map(|c| c.name.as_str()).collect()
    }
}
