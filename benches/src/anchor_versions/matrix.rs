//! The committed result of `make anchor-versions-baseline`
//! (benches/anchor_versions.json): each release's resolved versions and
//! `.so` sizes, and every benchmark call's CUs on each.

use std::{collections::BTreeMap, path::Path};

use serde::{Deserialize, Serialize};

pub use crate::matrix::{Cell, MatrixRow, built, measured};

/// One release's column.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ReleaseColumn {
    /// The release as the matrix names it (`0.32.2`, `2.0.0-rc.2`).
    pub release: String,
    /// anchor-lang and borsh as the release's lockfile resolved them.
    pub anchor_lang: String,
    pub borsh: String,
    /// Per program label: `.so` bytes, or why there is none (the build's
    /// first error, or the API the release lacks).
    pub programs: BTreeMap<String, Cell>,
}

/// Every program x operation across releases.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Matrix {
    /// The command that wrote it, and the commit it measured.
    pub command: String,
    pub commit: String,
    pub date: String,
    /// The releases in order, oldest first, Anchor 2 last.
    pub releases: Vec<ReleaseColumn>,
    /// Per row name (`anchor1/token/account::full`): cells per release.
    pub rows: BTreeMap<String, MatrixRow>,
}

impl Matrix {
    /// Where the committed matrix lives, from the workspace root.
    pub const COMMITTED: &str = "benches/anchor_versions.json";
    /// Where `make anchor-versions` writes a run's.
    pub const RUN: &str = "target/benches/anchor_versions.json";

    pub fn read(path: &Path) -> Result<Self, String> {
        crate::matrix::read(path)
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        crate::matrix::write(self, path)
    }

    /// Each column's release, in order.
    pub fn names(&self) -> Vec<&str> {
        self.releases.iter().map(|c| c.release.as_str()).collect()
    }
}
