//! Program discovery and the checks that keep a missing, corrupt or stale
//! binary out of every run.

use std::{
    fs,
    path::{Path, PathBuf},
    time::SystemTime,
};

use walkdir::WalkDir;

use crate::{
    error::HarnessError,
    program::{Encoding, Family, Framework, Program, Shape},
};

/// A checkout of this workspace (or, in tests, a copy of one).
#[derive(Clone, Debug)]
pub struct Workspace {
    pub root: PathBuf,
    /// Where the programs are read from: `target/deploy/`, or another
    /// toolchain's build (`make toolchains`).
    deploy: PathBuf,
    /// Where a run writes its reports: `target/benches/`, or a scratch
    /// folder (tests that measure this checkout leave its reports alone).
    benches: PathBuf,
}

impl Workspace {
    /// The workspace this crate was built in.
    pub fn current() -> Self {
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
        Self::at(
            manifest
                .parent()
                .expect("benches/ sits in the workspace root"),
        )
    }

    /// `BENCH_WORKSPACE` if set (the harness's own tests point it at a
    /// copy), else [`Workspace::current`].
    pub fn from_env() -> Self {
        std::env::var_os("BENCH_WORKSPACE").map_or_else(Self::current, Self::at)
    }

    pub fn at(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        let deploy = root.join("target/deploy");
        let benches = root.join("target/benches");
        Self {
            root,
            deploy,
            benches,
        }
    }

    /// The same workspace with its programs read from `deploy`.
    pub fn with_deploy_dir(self, deploy: impl Into<PathBuf>) -> Self {
        Self {
            deploy: deploy.into(),
            ..self
        }
    }

    /// The same workspace with its reports written to `benches`.
    pub fn with_benches_dir(self, benches: impl Into<PathBuf>) -> Self {
        Self {
            benches: benches.into(),
            ..self
        }
    }

    pub fn deploy_dir(&self) -> PathBuf {
        self.deploy.clone()
    }

    pub fn benches_dir(&self) -> PathBuf {
        self.benches.clone()
    }

    pub fn baseline_path(&self) -> PathBuf {
        self.root.join("benches/baseline.json")
    }

    /// The token family's no-op floor program, `benches/noop`, in every
    /// shape, where the workspace has it.
    pub fn floor(&self) -> Vec<Program> {
        let dir = self.root.join("benches/noop");
        if !dir.join("Cargo.toml").is_file() {
            return Vec::new();
        }
        Family::Token
            .shapes()
            .iter()
            .map(|&shape| {
                Program::new(
                    self,
                    Family::Token,
                    shape,
                    "noop",
                    dir.clone(),
                    Encoding::Raw,
                )
            })
            .collect()
    }

    /// The other frameworks' programs: solana-program's, then for each
    /// framework of the registry (`programs/frameworks.toml`), every folder under
    /// `programs/<framework>/<family>/` with a `Cargo.toml`, by family then
    /// name, then its floor (`programs/<framework>/noop`, run with the
    /// token family's calls).
    pub fn framework_programs(&self) -> Vec<Program> {
        let mut programs = self.solana_program_programs();
        for framework in Framework::registered() {
            let root = self.root.join("programs").join(framework.name());
            let mut paths = Vec::new();
            for family in Family::ALL {
                let names = program_folders(&root.join(family.name()));
                paths.extend(
                    names
                        .into_iter()
                        .map(|n| (family, format!("{}/{n}", family.name()))),
                );
            }
            if root.join("noop/Cargo.toml").is_file() {
                paths.push((Family::Token, "noop".into()));
            }
            programs.extend(paths.into_iter().map(|(family, path)| {
                let label = Program::label_in(framework, family, Shape::Exact, &path);
                Program {
                    framework,
                    family,
                    shape: Shape::Exact,
                    // The token record's borsh encoding is its raw layout.
                    encoding: Encoding::Raw,
                    id: Program::id_for(&label),
                    dir: root.join(&path),
                    so_path: self.deploy_dir().join(format!("{label}.so")),
                    name: path,
                }
            }));
        }
        programs
    }

    /// The token family's programs on solana-program's entrypoint: each
    /// folder under `programs/token/` (`token/<crate>`, in the `exact`
    /// shape, storing the crate's encoding), then the floor
    /// (`benches/noop`, `noop`), built to
    /// `target/deploy/solana-program/token/<crate>.so` and
    /// `target/deploy/solana-program/noop.so`.
    fn solana_program_programs(&self) -> Vec<Program> {
        let framework = Framework::SOLANA_PROGRAM;
        let token_dir = self.root.join("programs").join(Family::Token.name());
        let mut found: Vec<(String, PathBuf, Encoding)> = program_folders(&token_dir)
            .into_iter()
            .filter_map(|name| {
                let dir = token_dir.join(&name);
                // An unknown encoding is reported by `programs()`.
                let encoding = Program::encoding_in(&dir, &name).ok()?;
                Some((format!("{}/{name}", Family::Token.name()), dir, encoding))
            })
            .collect();
        let floor = self.root.join("benches/noop");
        if floor.join("Cargo.toml").is_file() {
            found.push(("noop".into(), floor, Encoding::Raw));
        }
        found
            .into_iter()
            .map(|(name, dir, encoding)| {
                let label = Program::label_in(framework, Family::Token, Shape::Exact, &name);
                Program {
                    framework,
                    family: Family::Token,
                    shape: Shape::Exact,
                    encoding,
                    id: Program::id_for(&label),
                    dir,
                    so_path: self.deploy_dir().join(format!("{label}.so")),
                    name,
                }
            })
            .collect()
    }

    /// Every folder under `programs/<family>/` that has a `Cargo.toml`, in
    /// each of its family's shapes: by family, shape, then name.
    pub fn programs(&self) -> Result<Vec<Program>, HarnessError> {
        let programs_dir = self.root.join("programs");
        let mut programs = Vec::new();
        for family in Family::ALL {
            let family_dir = programs_dir.join(family.name());
            let names = program_folders(&family_dir);
            let encodings = names
                .iter()
                .map(|name| Program::encoding_in(&family_dir.join(name), name))
                .collect::<Result<Vec<_>, _>>()?;
            for &shape in family.shapes() {
                for (name, &encoding) in names.iter().zip(&encodings) {
                    let dir = family_dir.join(name);
                    programs.push(Program::new(self, family, shape, name, dir, encoding));
                }
            }
        }
        if programs.is_empty() {
            return Err(HarnessError::NoPrograms(programs_dir));
        }
        Ok(programs)
    }

    pub fn relative(&self, path: &Path) -> PathBuf {
        path.strip_prefix(&self.root).unwrap_or(path).to_path_buf()
    }
}

/// The folders in `dir` that hold a `Cargo.toml`, sorted; none where `dir`
/// is missing.
fn program_folders(dir: &Path) -> Vec<String> {
    let Ok(entries) = fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("Cargo.toml").is_file())
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// The most recently modified file at or below `path`, if any.
pub(crate) fn newest_file(path: PathBuf) -> Option<(PathBuf, SystemTime)> {
    WalkDir::new(path)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file())
        .filter_map(|entry| {
            let modified = entry.metadata().ok()?.modified().ok()?;
            Some((entry.into_path(), modified))
        })
        .max_by_key(|(_, modified)| *modified)
}

/// A program found by discovery, in `workspace`'s deploy folder.
impl Program {
    fn new(
        workspace: &Workspace,
        family: Family,
        shape: Shape,
        name: &str,
        dir: PathBuf,
        encoding: Encoding,
    ) -> Self {
        let label = Self::label_of(family, shape, name);
        let deploy = workspace.deploy_dir().join(family.name());
        let deploy = match family {
            Family::Token => deploy.join(shape.name()),
            Family::Message | Family::Metadata => deploy,
        };
        Self {
            framework: Framework::PINOCCHIO,
            family,
            name: name.to_string(),
            shape,
            encoding,
            id: Self::id_for(&label),
            dir,
            so_path: deploy.join(format!("{name}.so")),
        }
    }
}
