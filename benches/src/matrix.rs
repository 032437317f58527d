//! What the two matrices share (`make toolchains`, benches/toolchains.json;
//! `make anchor-versions`, benches/anchor_versions.json): a cell per
//! benchmark case and column, the CUs or why there are none, and the
//! committed file read and written as JSON. Each matrix's columns are its
//! own.

use std::{collections::BTreeMap, fs, path::Path};

use serde::{Deserialize, Serialize, de::DeserializeOwned};

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
pub fn measured<'a>(rows: impl IntoIterator<Item = &'a MatrixRow>, column: &str) -> usize {
    rows.into_iter()
        .filter(|r| r.cells.get(column).and_then(Cell::cus).is_some())
        .count()
}

/// One benchmark case across the matrix's columns.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatrixRow {
    pub family: String,
    /// The crate or format (the program's folder).
    pub program: String,
    pub operation: String,
    /// What else tells rows of an operation apart: the token family's
    /// shape, the message size, the metadata instance.
    pub group: String,
    /// Per column (a toolchain's name, a release).
    pub cells: BTreeMap<String, Cell>,
}

/// A committed matrix, from its JSON file.
pub fn read<T: DeserializeOwned>(path: &Path) -> Result<T, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// A matrix as its JSON file, the folder made where missing.
pub fn write<T: Serialize>(matrix: &T, path: &Path) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    let text = serde_json::to_string_pretty(matrix).expect("JSON") + "\n";
    fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
