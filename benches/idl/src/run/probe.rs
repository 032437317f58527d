//! The crates a refused program's parts are built as, while the items
//! that cause the refusal are found: each part a crate of its own (one a
//! part of a round, all built together), removed after.

use std::{
    fs,
    path::{Path, PathBuf},
};

use crate::{
    generate::{self, Built, Crate},
    guard,
    render::RowFormat,
};

/// Writes the part of a program's items given as the crate named (its
/// name, its package): `false` where it has none left.
pub(super) type WritePart<'a> = dyn FnMut(&[usize], &str, &str) -> Result<bool, String> + 'a;

/// The crates that hold the parts of a refused program while its culprits
/// are found (one a part of a round, built together); removed after.
pub(super) struct Probe {
    name: String,
    package: String,
    format: RowFormat,
}

impl Probe {
    pub(super) fn new(name: &str, package: &str, format: RowFormat) -> Self {
        Self {
            name: format!("{name}_probe"),
            package: format!("{package}-probe"),
            format,
        }
    }

    /// The name and package of the crate that holds a round's part `k`.
    fn part(&self, k: usize) -> (String, String) {
        (format!("{}{k}", self.name), format!("{}{k}", self.package))
    }

    /// Builds each of `parts` (indices of items) alone in a crate of its own,
    /// all together ([`generate::build_together`]): `write` writes the
    /// part of the items given as the crate named (`false` where it has
    /// none left). Whether each could be built, or why not; `written`
    /// keeps the most crates written, to remove after.
    fn attempt(
        &self,
        (root, dir): (&Path, &Path),
        parts: &[&[usize]],
        write: &mut WritePart,
        written: &mut usize,
    ) -> Vec<Result<(), String>> {
        *written = (*written).max(parts.len());
        let mut crates = Vec::new();
        let mut outcomes = Vec::new();
        for (k, some) in parts.iter().enumerate() {
            let (name, package) = self.part(k);
            outcomes.push(match write(some, &name, &package) {
                Ok(true) => {
                    let format = self.format;
                    crates.push(Crate {
                        name,
                        package,
                        format,
                    });
                    None
                }
                Ok(false) => Some(Err(guard::bug("no part of it renders"))),
                Err(reason) => Some(Err(reason)),
            });
        }
        generate::build_together(root, dir, &crates);
        let built = |k: usize| {
            let (name, package) = self.part(k);
            match generate::build_format(root, dir, &name, &package, self.format) {
                Built::Program(_) => Ok(()),
                Built::Refused(refused) => Err(refused.reason),
            }
        };
        let outcomes = outcomes.into_iter().enumerate();
        outcomes
            .map(|(k, written)| written.unwrap_or_else(|| built(k)))
            .collect()
    }

    /// Of `items`, those refused when each is built alone (all together),
    /// each with its refusal. The crates are removed after.
    pub(super) fn alone(
        &self,
        root: &Path,
        dir: &Path,
        items: &[usize],
        write: &mut WritePart,
    ) -> Vec<(usize, String)> {
        if items.is_empty() {
            return Vec::new();
        }
        let parts: Vec<&[usize]> = items.iter().map(std::slice::from_ref).collect();
        let mut written = 0;
        let outcomes = self.attempt((root, dir), &parts, write, &mut written);
        self.remove(dir, written);
        let refused = items.iter().zip(outcomes);
        refused
            .filter_map(|(i, outcome)| outcome.err().map(|why| (*i, why)))
            .collect()
    }

    /// The items (of `count`) that cause `reason`, found by building parts
    /// of the program alone, each round's parts together ([`Self::attempt`]).
    /// The crates are removed after.
    pub(super) fn culprits(
        &self,
        root: &Path,
        dir: &Path,
        count: usize,
        reason: String,
        write: &mut WritePart,
    ) -> Vec<(usize, String)> {
        let all: Vec<usize> = (0..count).collect();
        let mut written = 0;
        let found = generate::culprits(&all, reason, &mut |parts| {
            self.attempt((root, dir), parts, write, &mut written)
        });
        self.remove(dir, written);
        found
    }

    /// Removes the crates of parts `0..parts`.
    fn remove(&self, dir: &Path, parts: usize) {
        for k in 0..parts {
            remove_crate(dir, &self.part(k).0, self.format);
        }
    }
}

/// The folder of crate `name` of `format`, in its workspace.
pub(super) fn crate_dir(dir: &Path, name: &str, format: RowFormat) -> PathBuf {
    let workspace = if format.is_anchor1() {
        dir.join(generate::ANCHOR1)
    } else {
        dir.to_path_buf()
    };
    workspace.join("programs").join(name)
}

/// Removes a probe's crate `name` of `format` and its `.so`.
pub(super) fn remove_crate(dir: &Path, name: &str, format: RowFormat) {
    let _ = fs::remove_dir_all(crate_dir(dir, name, format));
    let so = dir.join("deploy").join(format!("{name}.so"));
    let _ = fs::remove_file(split_debug::debug_path(&so));
    let _ = fs::remove_file(so);
}
