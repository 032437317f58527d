//! The framework a program is written with, as `programs/frameworks.toml`
//! declares it: `pinocchio` with the family's shared dispatch in `common/`
//! (every crate's row); `solana-program`, the token family's crates on
//! solana-program's entrypoint (the same program folders, built with
//! `common/solana-program`); or a framework of the registry, with its own
//! dispatch, checks and account types in `programs/<name>/`. The registry
//! is read once, when the harness is compiled; nothing here names one of
//! its frameworks.

use std::{collections::BTreeMap, fmt, sync::LazyLock};

use serde::Deserialize;

/// The registry, as the harness was compiled with it.
const REGISTRY: &str = include_str!("../../programs/frameworks.toml");

/// A framework: the two this workspace's programs are built on, then the
/// registry's, in its order (the order reports list them in).
#[derive(Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Framework(usize);

/// One framework, as the registry declares it (its comments say what each
/// field means).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub name: String,
    pub title: String,
    #[serde(default)]
    pub report: String,
    #[serde(rename = "crate")]
    pub crate_name: String,
    pub std: bool,
    pub target: String,
    pub inputs: Vec<String>,
    #[serde(default)]
    pub setup: Option<String>,
    #[serde(default)]
    pub setup_into: Option<String>,
    pub built_on: Vec<String>,
    /// Where its account type casts a Pod record over an account's bytes:
    /// the words for it (`make idl`'s moves table, under a `bytemuck`
    /// path).
    #[serde(default)]
    pub pod_cast: Option<String>,
    #[serde(default)]
    pub borsh: Option<Borsh>,
    /// Its code's function names by the category `make profile` counts
    /// them in (the category's name: `checks`, `decode`, ...).
    #[serde(default)]
    pub symbols: BTreeMap<String, Vec<String>>,
    /// The frames beneath which its generated entry calls an
    /// instruction's own function (counted as the operation).
    #[serde(default)]
    pub handler_beneath: Vec<String>,
    /// Frames every stack of its programs passes through (the entry and
    /// dispatch), which name only their own instructions.
    #[serde(default)]
    pub passes_through: Vec<String>,
    pub path: Vec<ProgramPath>,
}

/// Its program of each family that decodes the record with borsh
/// (`<program>`, under the question's family) and the answer's words for
/// it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Borsh {
    pub program: String,
    pub line: String,
}

/// One of its programs (`<family>/<program>`) as the reports name it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProgramPath {
    pub program: String,
    /// The answer's line for it.
    pub line: String,
    /// Its column's heading in the report's frameworks section.
    pub column: String,
    /// A metadata program's layout of the record.
    #[serde(default)]
    pub layout: Option<Layout>,
}

/// How a metadata program holds the record, as the report's frameworks
/// section groups its columns (in this order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Decoded into owned values.
    Owned,
    /// Laid over the bytes at its own length.
    Unsized,
    /// At fixed capacity, cast in place.
    Fixed,
}

impl Layout {
    pub const ALL: [Layout; 3] = [Layout::Owned, Layout::Unsized, Layout::Fixed];
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Registry {
    framework: Vec<Entry>,
}

/// The two frameworks built in this workspace, before the registry's.
fn built_in(name: &str) -> Entry {
    Entry {
        name: name.into(),
        title: name.into(),
        report: String::new(),
        crate_name: name.into(),
        std: name == SOLANA_PROGRAM,
        target: ".".into(),
        inputs: Vec::new(),
        setup: None,
        setup_into: None,
        built_on: Vec::new(),
        pod_cast: None,
        borsh: None,
        symbols: BTreeMap::new(),
        handler_beneath: Vec::new(),
        passes_through: Vec::new(),
        path: Vec::new(),
    }
}

const PINOCCHIO: &str = "pinocchio";
const SOLANA_PROGRAM: &str = "solana-program";

static ENTRIES: LazyLock<Vec<Entry>> = LazyLock::new(|| {
    let registry: Registry = toml::from_str(REGISTRY)
        .unwrap_or_else(|e| panic!("programs/frameworks.toml does not parse: {e}"));
    let mut entries = vec![built_in(PINOCCHIO), built_in(SOLANA_PROGRAM)];
    entries.extend(registry.framework);
    entries
});

impl Framework {
    /// Every crate's row: pinocchio and the family's dispatch in `common/`.
    pub const PINOCCHIO: Framework = Framework(0);
    /// The token family's crates on solana-program's entrypoint.
    pub const SOLANA_PROGRAM: Framework = Framework(1);

    /// Every framework, pinocchio first.
    pub fn all() -> impl Iterator<Item = Framework> {
        (0..ENTRIES.len()).map(Framework)
    }

    /// The frameworks beside pinocchio, each measured in its own group:
    /// solana-program, then the registry's.
    pub fn others() -> impl Iterator<Item = Framework> {
        Self::all().skip(1)
    }

    /// The registry's frameworks, each a workspace under `programs/`.
    pub fn registered() -> impl Iterator<Item = Framework> {
        Self::all().skip(2)
    }

    /// The framework of that name; `None` where nothing is so named.
    pub fn named(name: &str) -> Option<Framework> {
        Self::all().find(|f| f.name() == name)
    }

    /// Its declaration.
    pub fn entry(self) -> &'static Entry {
        &ENTRIES[self.0]
    }

    /// Its folder under `target/deploy/` and the first part of its
    /// programs' labels.
    pub fn name(self) -> &'static str {
        &self.entry().name
    }

    /// As reports name it.
    pub fn title(self) -> &'static str {
        &self.entry().title
    }

    /// The framework's crate, as its programs' lock names it.
    pub fn crate_name(self) -> &'static str {
        &self.entry().crate_name
    }

    /// Whether its programs are built in this workspace (pinocchio's and
    /// solana-program's), not in a workspace of their own.
    pub fn is_built_in(self) -> bool {
        self.0 < 2
    }

    /// The cargo workspace its programs are built in, relative to the
    /// root: this one, or `programs/<name>` (its own lockfile, since its
    /// crates pin other versions).
    pub fn workspace(self) -> String {
        match self.is_built_in() {
            true => ".".into(),
            false => format!("programs/{}", self.name()),
        }
    }

    /// The name its crate's version has in a report's provenance: the
    /// crate's, but where a later framework is the same crate, with its
    /// own name in brackets (`anchor-lang (<name>)`), so both are kept.
    pub fn crate_key(self) -> String {
        let shared = Self::all().any(|f| f > self && f.crate_name() == self.crate_name());
        match shared {
            true => format!("{} ({})", self.crate_name(), self.name()),
            false => self.crate_name().to_string(),
        }
    }
}

impl fmt::Debug for Framework {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Display for Framework {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Framework {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The registry parses, each name once, each framework with its
    /// folder under `programs/` and a floor there.
    #[test]
    fn every_registered_framework_has_its_workspace_and_floor() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let names: Vec<&str> = Framework::all().map(Framework::name).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
        for framework in Framework::registered() {
            let dir = root.join(framework.workspace());
            assert!(dir.join("Cargo.toml").is_file(), "{}", dir.display());
            assert!(dir.join("noop/Cargo.toml").is_file(), "{}", dir.display());
            let entry = framework.entry();
            // A setup script is in its folder, with the folder it fills.
            if let Some(setup) = &entry.setup {
                assert!(dir.join(setup).is_file(), "{}: {setup}", framework.name());
                assert!(
                    entry.setup_into.is_some(),
                    "{}: setup_into",
                    framework.name()
                );
            }
            assert!(
                !entry.path.is_empty(),
                "{}: no program for the reports",
                framework.name()
            );
            for input in &entry.inputs {
                assert!(
                    dir.join(input).exists() || input.starts_with('.'),
                    "{}: {input}",
                    framework.name()
                );
            }
        }
        assert_eq!(Framework::named("pinocchio"), Some(Framework::PINOCCHIO));
        assert_eq!(Framework::named("nothing"), None);
    }

    /// Every workspace under `programs/` (a folder with a `Cargo.toml`)
    /// is declared.
    #[test]
    fn every_framework_workspace_is_declared() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../programs");
        for entry in std::fs::read_dir(&root).unwrap().flatten() {
            if entry.path().join("Cargo.toml").is_file() {
                let name = entry.file_name().to_string_lossy().into_owned();
                assert!(
                    Framework::named(&name).is_some_and(|f| !f.is_built_in()),
                    "programs/{name} is a workspace programs/frameworks.toml does not declare"
                );
            }
        }
    }
}
