//! The anchor-lang releases the project builds its Anchor 1.x programs
//! with: the one `programs/anchor1/` pins, every release the matrix
//! measures (`make anchor-versions`), what each one's API lacks, and where
//! its committed lockfile is. `make idl` builds its Anchor programs on
//! one of them.

use std::path::{Path, PathBuf};

/// One anchor-lang release, and what its API lacks or names differently
/// from the newest (the programs' sources are the newest's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Release {
    pub version: &'static str,
    /// anchor-lang re-exports borsh 0.10 (0.29 to 0.32), which has no
    /// `borsh::object_length`: the programs count the encoding themselves
    /// (`anchor1-records`' `borsh-0-10` feature).
    pub borsh_0_10: bool,
    /// `LazyAccount<T>` (the `lazy-account` feature) exists: from 0.31.0.
    pub lazy_account: bool,
}

/// Every release measured: each minor's newest from 0.29, and the newest
/// of each 1.x minor (crates.io's index, 2026-11-26).
pub const RELEASES: [Release; 7] = [
    Release::old("0.29.0", false),
    Release::old("0.30.1", false),
    Release::old("0.31.2", true),
    Release::old("0.32.2", true),
    Release::new("1.0.3"),
    Release::new("1.1.2"),
    Release::new("1.2.2"),
];

/// The release `programs/anchor1/` pins, built by `make all`.
pub const PINNED: &str = "1.2.2";

/// Anchor 2's column: the release `programs/anchor2/` pins.
pub const ANCHOR2: &str = "2.0.0-rc.2";

impl Release {
    const fn old(version: &'static str, lazy_account: bool) -> Self {
        Self {
            version,
            borsh_0_10: true,
            lazy_account,
        }
    }

    const fn new(version: &'static str) -> Self {
        Self {
            version,
            borsh_0_10: false,
            lazy_account: true,
        }
    }

    /// Why `program` (`token/lazy_account`) cannot exist in this release,
    /// if it cannot.
    pub fn lacks(&self, program: &str) -> Option<String> {
        (program.ends_with("lazy_account") && !self.lazy_account).then(|| {
            format!(
                "anchor-lang {} has no `LazyAccount<T>` (its `lazy-account` feature is new in 0.31.0)",
                self.version
            )
        })
    }

    /// Where this release's workspace, build and deploy folders live.
    pub fn dir(&self, root: &Path) -> std::path::PathBuf {
        root.join("target/anchor-versions").join(self.version)
    }
}

/// The release's committed lockfile (for the pinned release, the one
/// `make all` builds with).
pub fn committed_lock(root: &Path, release: &Release) -> PathBuf {
    if release.version == PINNED {
        root.join("programs/anchor1/Cargo.lock")
    } else {
        root.join("benches/anchor_versions")
            .join(format!("{}.lock", release.version))
    }
}
