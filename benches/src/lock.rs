//! The parts of a `Cargo.lock` the reports need: each crate's version,
//! and what a program depends on.

use crate::{
    Program, Workspace,
    program::{Framework, read_toml},
};

/// The parts of Cargo.lock the reports need.
pub struct Lock {
    packages: Vec<toml::Value>,
}

impl Lock {
    pub fn read(workspace: &Workspace) -> Self {
        Self::read_file(&workspace.root.join("Cargo.lock"))
    }

    /// The lock of another framework's programs
    /// (`programs/<framework>/Cargo.lock`).
    pub fn of_framework(workspace: &Workspace, framework: Framework) -> Self {
        Self::read_file(
            &workspace
                .root
                .join(framework.workspace())
                .join("Cargo.lock"),
        )
    }

    /// Another workspace's lock.
    pub fn read_file(path: &std::path::Path) -> Self {
        let lock = read_toml(path);
        let packages = lock.get("package").and_then(|p| p.as_array()).cloned();
        Self {
            packages: packages.unwrap_or_default(),
        }
    }

    fn field<'a>(package: &'a toml::Value, key: &str) -> &'a str {
        package
            .get(key)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
    }

    /// Every version of a crate in the lock, oldest first.
    pub fn versions(&self, name: &str) -> Vec<String> {
        let mut versions: Vec<String> = self
            .packages
            .iter()
            .filter(|p| Self::field(p, "name") == name)
            .map(|p| Self::field(p, "version").to_string())
            .collect();
        versions.sort_by_key(|v| {
            v.split('.')
                .map(|n| n.parse::<u64>().unwrap_or(0))
                .collect::<Vec<_>>()
        });
        versions
    }

    /// The version of a crate that appears once in the lock.
    pub fn version(&self, name: &str) -> Option<String> {
        let mut found = self
            .packages
            .iter()
            .filter(|p| Self::field(p, "name") == name);
        let only = found.next()?;
        found
            .next()
            .is_none()
            .then(|| Self::field(only, "version").to_string())
    }

    /// (crate, version) of what `<program>-program` depends on besides
    /// `common`: its serializer (nothing for the raw cast).
    pub fn program_crates(&self, program: &Program) -> Vec<(String, String)> {
        let package = program.package();
        let Some(entry) = self
            .packages
            .iter()
            .find(|p| Self::field(p, "name") == package)
        else {
            return Vec::new();
        };
        let deps = entry
            .get("dependencies")
            .and_then(|d| d.as_array())
            .cloned();
        deps.unwrap_or_default()
            .iter()
            .filter_map(|dep| {
                // "name" when one version is locked, else "name version".
                let mut words = dep.as_str()?.split(' ');
                let name = words.next()?.to_string();
                let version = match words.next() {
                    Some(version) => version.to_string(),
                    None => self.version(&name)?,
                };
                Some((name, version))
            })
            .filter(|(name, _)| name != "common")
            .collect()
    }
}
