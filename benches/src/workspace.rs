//! Program discovery and the checks that keep a missing, corrupt or stale
//! binary out of every run.

use std::{
    fs,
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
    sync::{Arc, Mutex},
    thread,
    time::SystemTime,
};

use mollusk_svm::Mollusk;
use sha2::{Digest, Sha256};
use solana_pubkey::Pubkey;
use walkdir::WalkDir;

use crate::{
    token::record::Encoding,
    trace::{self, Tracer},
};

/// A failure of the harness itself, before or while running a program.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HarnessError {
    #[error("no programs found under {0}")]
    NoPrograms(PathBuf),
    #[error("program `{program}`: {path} is missing; run `make all`")]
    Missing { program: String, path: PathBuf },
    #[error("program `{program}`: {path} is older than {source_file}; run `make all`")]
    Stale {
        program: String,
        path: PathBuf,
        source_file: PathBuf,
    },
    #[error(
        "program `{program}`: {path} is not a loadable sBPF program ({reason}); run `make all`"
    )]
    Invalid {
        program: String,
        path: PathBuf,
        reason: String,
    },
    #[error(
        "program `{program}`: no host codec to compute expected bytes; add `{name}` to HOST_FORMATS in common/src/{family}/formats.rs"
    )]
    NoHostCodec {
        program: String,
        family: &'static str,
        name: String,
    },
    #[error(
        "program `{program}`: {path} names an unknown token encoding `{encoding}`; use one of {known}, or add it to Encoding in benches/src/token/record.rs"
    )]
    UnknownEncoding {
        program: String,
        path: PathBuf,
        encoding: String,
        known: String,
    },
    #[error("{0}")]
    Report(String),
    #[error("program `{program}`, operation `{operation}`: {detail}")]
    WrongResult {
        program: String,
        operation: String,
        detail: String,
    },
}

/// A family of programs: one logical record, its operations and contract.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// The fixed 160-byte `Account`.
    Token,
    /// A variable-length stored transaction message, 160 bytes to 10 KB.
    Message,
    /// An NFT metadata-like record: strings, options, enums, in an account
    /// sized for the format's largest record.
    Metadata,
}

impl Family {
    pub const ALL: [Family; 3] = [Family::Token, Family::Message, Family::Metadata];

    /// The folder under `programs/` and `target/deploy/`.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Token => "token",
            Self::Message => "message",
            Self::Metadata => "metadata",
        }
    }

    /// The heap frame every case of the family runs with, as a transaction
    /// requests it (`ComputeBudgetInstruction::RequestHeapFrame`): the
    /// family's own constant in `common`, which also bounds its programs'
    /// allocator. The runtime charges a larger frame to the program's CUs
    /// (8 per 32 KiB past the first).
    pub const fn heap_frame(self) -> u32 {
        match self {
            Self::Token => common::token::HEAP_FRAME,
            Self::Message => common::message::HEAP_FRAME,
            Self::Metadata => common::metadata::HEAP_FRAME,
        }
    }

    /// The shapes each program of the family is built in: the message
    /// and metadata families' programs are built once (recorded as `exact`).
    pub const fn shapes(self) -> &'static [Shape] {
        match self {
            Self::Token => &Shape::ALL,
            Self::Message | Self::Metadata => &[Shape::Exact],
        }
    }
}

/// The framework a program is written with: `pinocchio` with the family's
/// shared dispatch in `common/` (every crate's row); `solana-program`, the
/// token family's crates on solana-program's entrypoint (the same program
/// folders, built with `common/solana-program`); or another framework with
/// its own dispatch, checks and account types, in `programs/<framework>/`:
/// Anchor 1.x (`anchor1`), Anchor 2 (`anchor2`), typhoon (`typhoon`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Framework {
    #[default]
    Pinocchio,
    #[serde(rename = "solana-program")]
    SolanaProgram,
    Anchor1,
    Anchor2,
    Typhoon,
}

impl Framework {
    pub const ALL: [Framework; 5] = [
        Framework::Pinocchio,
        Framework::SolanaProgram,
        Framework::Anchor1,
        Framework::Anchor2,
        Framework::Typhoon,
    ];
    /// The frameworks beside pinocchio, each measured in its own group.
    pub const OTHERS: [Framework; 4] = [
        Framework::SolanaProgram,
        Framework::Anchor1,
        Framework::Anchor2,
        Framework::Typhoon,
    ];

    /// Its folder under `target/deploy/` and the first part of its
    /// programs' labels.
    pub const fn name(self) -> &'static str {
        match self {
            Self::Pinocchio => "pinocchio",
            Self::SolanaProgram => "solana-program",
            Self::Anchor1 => "anchor1",
            Self::Anchor2 => "anchor2",
            Self::Typhoon => "typhoon",
        }
    }

    /// As reports name it.
    pub const fn title(self) -> &'static str {
        match self {
            Self::Pinocchio => "pinocchio",
            Self::SolanaProgram => "solana-program",
            Self::Anchor1 => "Anchor 1.x",
            Self::Anchor2 => "Anchor 2",
            Self::Typhoon => "typhoon",
        }
    }

    /// The framework's crate, as its programs' lock names it.
    pub const fn crate_name(self) -> &'static str {
        match self {
            Self::Pinocchio => "pinocchio",
            Self::SolanaProgram => "solana-program",
            Self::Anchor1 | Self::Anchor2 => "anchor-lang",
            Self::Typhoon => "typhoon",
        }
    }

    /// The cargo workspace its programs are built in, relative to the
    /// root: this one, or a workspace of the framework's own (its own
    /// lockfile, since its crates pin other versions).
    pub const fn workspace(self) -> &'static str {
        match self {
            Self::Pinocchio | Self::SolanaProgram => ".",
            Self::Anchor1 => "programs/anchor1",
            Self::Anchor2 => "programs/anchor2",
            Self::Typhoon => "programs/typhoon",
        }
    }
}

/// What the program tells the compiler about the account's length before a
/// crate decodes it (common/src/token/shape.rs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Shape {
    /// `len == 160`; the crate gets a `[u8; 160]`.
    Exact,
    /// `len >= 160`; the crate gets the whole slice.
    AtLeast,
    /// No length check; the crate's own API refuses short data.
    Unchecked,
}

impl Shape {
    pub const ALL: [Shape; 3] = [Shape::Exact, Shape::AtLeast, Shape::Unchecked];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Exact => "exact",
            Self::AtLeast => "at_least",
            Self::Unchecked => "unchecked",
        }
    }

    /// The cargo features that build a program in this shape (as the
    /// Makefile passes them).
    pub const fn features(self) -> &'static str {
        match self {
            Self::Exact => "",
            Self::AtLeast => "common/at_least",
            Self::Unchecked => "common/unchecked",
        }
    }
}

/// A benchmark program built in one shape: a folder
/// `programs/<family>/<name>/` whose package is `<name>-program`, built to
/// `target/deploy/<family>/<shape>/<name>.so`; or another framework's
/// program, `programs/<framework>/<family>/<name>/`, built to
/// `target/deploy/<framework>/<family>/<name>.so`.
#[derive(Clone, Debug)]
pub struct Program {
    pub framework: Framework,
    pub family: Family,
    /// The folder's name: the crate or format. For another framework's
    /// program, its path under `programs/<framework>/` (`token/account`,
    /// `noop`).
    pub name: String,
    pub shape: Shape,
    /// How a token program stores `Account` (`raw` for the message family).
    pub encoding: Encoding,
    pub id: Pubkey,
    pub dir: PathBuf,
    pub so_path: PathBuf,
}

impl Program {
    /// This program's host codec, found by its folder's name in its
    /// family's table (`lookup`), or what to do without one.
    pub fn host_codec<F>(
        &self,
        lookup: fn(&str) -> Option<&'static F>,
    ) -> Result<&'static F, HarnessError> {
        lookup(&self.name).ok_or_else(|| HarnessError::NoHostCodec {
            program: self.label(),
            family: self.family.name(),
            name: self.name.clone(),
        })
    }

    /// The program as a report names it: `borsh` for the token family's
    /// `exact` shape (the names the table has always had), else the shape
    /// or family first: `at_least/borsh`.
    pub fn label(&self) -> String {
        Self::label_in(self.framework, self.family, self.shape, &self.name)
    }

    /// [`Program::label_of`] for a program of any framework: another
    /// framework's is its name and the path (`anchor2/token/account`).
    pub fn label_in(framework: Framework, family: Family, shape: Shape, name: &str) -> String {
        match framework {
            Framework::Pinocchio => Self::label_of(family, shape, name),
            other => format!("{}/{name}", other.name()),
        }
    }

    pub fn label_of(family: Family, shape: Shape, name: &str) -> String {
        match (family, shape) {
            (Family::Token, Shape::Exact) => name.to_string(),
            (Family::Token, shape) => format!("{}/{name}", shape.name()),
            (family, _) => format!("{}/{name}", family.name()),
        }
    }

    /// The cargo package: `<name>-program` for the token family,
    /// `<name>-<family>-program` for the others.
    /// Another framework's is its name and the path, dashed
    /// (`anchor2-token-borsh-account`).
    pub fn package(&self) -> String {
        match (self.framework, self.family) {
            (Framework::Pinocchio, Family::Token) => format!("{}-program", self.name),
            (Framework::Pinocchio, family) => format!("{}-{}-program", self.name, family.name()),
            // The token family's own folders (`token/<crate>`), and the floor.
            (Framework::SolanaProgram, _) => {
                format!("{}-program", self.name.trim_start_matches("token/"))
            }
            (other, _) => format!("{}-{}", other.name(), self.name.replace(['/', '_'], "-")),
        }
    }

    /// What must be older than the program's `.so` besides its own folder:
    /// its workspace's manifest, lock and build configuration.
    fn shared_inputs(&self) -> &'static [&'static str] {
        match self.framework {
            Framework::Pinocchio => &SHARED_INPUTS,
            Framework::SolanaProgram => &STD_INPUTS,
            Framework::Anchor1 => &ANCHOR1_INPUTS,
            Framework::Anchor2 => &ANCHOR2_INPUTS,
            Framework::Typhoon => &TYPHOON_INPUTS,
        }
    }

    /// Ids come from the label alone, so they are the same on every machine
    /// and for every run.
    pub fn id_for(label: &str) -> Pubkey {
        let digest = Sha256::digest(format!("serialization-bench/program/{label}"));
        Pubkey::new_from_array(digest.into())
    }

    /// The encoding a program's Cargo.toml names
    /// (`[package.metadata.token] encoding = "postcard"`), `raw` by default.
    pub(crate) fn encoding_in(dir: &Path, name: &str) -> Result<Encoding, HarnessError> {
        let path = dir.join("Cargo.toml");
        let manifest = read_toml(&path);
        let named = manifest
            .get("package")
            .and_then(|p| p.get("metadata"))
            .and_then(|m| m.get("token"))
            .and_then(|t| t.get("encoding"))
            .and_then(|e| e.as_str());
        match named {
            None => Ok(Encoding::Raw),
            Some(encoding) => Encoding::from_name(encoding).ok_or(HarnessError::UnknownEncoding {
                program: name.to_string(),
                path,
                encoding: encoding.to_string(),
                known: Encoding::ALL.map(Encoding::name).join(", "),
            }),
        }
    }

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
            framework: Framework::Pinocchio,
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

/// The files that must be older than a program's `.so`: its own folder, the
/// shared crate, and what pins the build.
const SHARED_INPUTS: [&str; 5] = [
    "common",
    "Cargo.toml",
    "Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
];

/// The same for the programs built with `std` in this workspace, and the
/// std sources `make setup` installed.
const STD_INPUTS: [&str; 7] = [
    "common",
    "Cargo.toml",
    "Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    "benches/std",
    ".tools/std/.installed",
];

/// The same for the Anchor 1.x programs' workspace, the types its
/// programs share, and the std they are built with.
const ANCHOR1_INPUTS: [&str; 7] = [
    "programs/anchor1/Cargo.toml",
    "programs/anchor1/Cargo.lock",
    "programs/anchor1/records",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    "benches/std",
    ".tools/std/.installed",
];

/// The same for the typhoon programs' workspace.
const TYPHOON_INPUTS: [&str; 4] = [
    "programs/typhoon/Cargo.toml",
    "programs/typhoon/Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
];

/// The same for the Anchor 2 programs' workspace, the types its programs
/// share, and the anchor-lang it is built with, as `make setup` installed
/// it.
const ANCHOR2_INPUTS: [&str; 7] = [
    "programs/anchor2/Cargo.toml",
    "programs/anchor2/Cargo.lock",
    "programs/anchor2/records",
    "programs/anchor2/.cargo",
    ".tools/anchor-lang/.installed",
    "rust-toolchain.toml",
    ".cargo/config.toml",
];

/// A TOML file's table; empty where it is missing or unreadable.
pub(crate) fn read_toml(path: &Path) -> toml::Table {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or_default()
}

/// A checkout of this workspace (or, in tests, a copy of one).
#[derive(Clone, Debug)]
pub struct Workspace {
    pub root: PathBuf,
    /// Where the programs are read from: `target/deploy/`, or another
    /// toolchain's build (`make toolchains`).
    deploy: PathBuf,
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
        Self { root, deploy }
    }

    /// The same workspace with its programs read from `deploy`.
    pub fn with_deploy_dir(self, deploy: impl Into<PathBuf>) -> Self {
        Self {
            deploy: deploy.into(),
            ..self
        }
    }

    pub fn deploy_dir(&self) -> PathBuf {
        self.deploy.clone()
    }

    pub fn benches_dir(&self) -> PathBuf {
        self.root.join("target/benches")
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

    /// The other frameworks' programs: for each, every folder under
    /// `programs/<framework>/<family>/` with a `Cargo.toml`, by family then
    /// name, then its floor (`programs/<framework>/noop`, run with the
    /// token family's calls).
    pub fn framework_programs(&self) -> Vec<Program> {
        let mut programs = self.solana_program_programs();
        for framework in [Framework::Anchor1, Framework::Anchor2, Framework::Typhoon] {
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
        let framework = Framework::SolanaProgram;
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

    /// `framework`'s programs of `family` (the token family's with the
    /// framework's floor), and a Mollusk with all of them loaded.
    pub fn load_framework(
        &self,
        framework: Framework,
        family: Family,
    ) -> Result<(Vec<Program>, Mollusk), HarnessError> {
        let programs = self
            .framework_programs()
            .into_iter()
            .filter(|p| p.framework == framework)
            .collect();
        let folder = match framework {
            Framework::SolanaProgram => "programs".to_string(),
            other => format!("programs/{}", other.name()),
        };
        self.load_from(programs, family, &folder)
    }

    /// Each other framework's programs of each family with their Mollusk,
    /// for every framework and family that has any.
    pub fn framework_groups(&self) -> Result<Vec<(Vec<Program>, Mollusk)>, HarnessError> {
        let programs = self.framework_programs();
        let mut groups = Vec::new();
        for framework in Framework::OTHERS {
            for family in Family::ALL {
                if programs
                    .iter()
                    .any(|p| p.framework == framework && p.family == family)
                {
                    groups.push(self.load_framework(framework, family)?);
                }
            }
        }
        Ok(groups)
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

    /// The program's ELF, once it is known to exist and to be newer than
    /// every source it is built from.
    pub fn elf(&self, program: &Program) -> Result<Vec<u8>, HarnessError> {
        let built = fs::metadata(&program.so_path)
            .and_then(|meta| meta.modified())
            .map_err(|_| HarnessError::Missing {
                program: program.label(),
                path: self.relative(&program.so_path),
            })?;
        let inputs = program.shared_inputs().iter().map(|p| self.root.join(p));
        if let Some((source, _)) = std::iter::once(program.dir.clone())
            .chain(inputs)
            .flat_map(newest_file)
            .filter(|(_, modified)| *modified > built)
            .max_by_key(|(_, modified)| *modified)
        {
            return Err(HarnessError::Stale {
                program: program.label(),
                path: self.relative(&program.so_path),
                source_file: self.relative(&source),
            });
        }
        fs::read(&program.so_path).map_err(|_| HarnessError::Missing {
            program: program.label(),
            path: self.relative(&program.so_path),
        })
    }

    /// A Mollusk with every program loaded under its id.
    pub fn mollusk(&self, programs: &[Program]) -> Result<Mollusk, HarnessError> {
        let elfs = programs
            .iter()
            .map(|p| self.elf(p))
            .collect::<Result<Vec<_>, _>>()?;
        self.mollusk_with(programs, &elfs)
    }

    /// A Mollusk with each program loaded from its already checked ELF, and
    /// the heap frame of their family (one family per Mollusk).
    pub fn mollusk_with(
        &self,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<Mollusk, HarnessError> {
        let mut mollusk = Mollusk::default();
        if let Some(program) = programs.first() {
            mollusk.compute_budget.heap_size = program.family.heap_frame();
        }
        keep_log(&mut mollusk);
        self.add_programs(&mut mollusk, programs, elfs)?;
        Ok(mollusk)
    }

    /// Loads each program into `mollusk` from its already checked ELF.
    fn add_programs(
        &self,
        mollusk: &mut Mollusk,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<(), HarnessError> {
        for (program, elf) in programs.iter().zip(elfs) {
            add_program(mollusk, program, elf).map_err(|reason| HarnessError::Invalid {
                program: program.label(),
                path: self.relative(&program.so_path),
                reason,
            })?;
        }
        Ok(())
    }

    /// Like [`Workspace::mollusk_with`], with register tracing, reporting
    /// each call's footprint to the returned tracer.
    pub fn traced_mollusk(
        &self,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<(Mollusk, Tracer), HarnessError> {
        let first = programs
            .first()
            .ok_or_else(|| HarnessError::Report("no programs to trace".into()))?;
        // Tracing is chosen when Mollusk is made, with a first program (the
        // others, as in `mollusk_with`, from checked ELFs), each in the copy
        // a tracing loader accepts.
        let elfs: Vec<Vec<u8>> = elfs
            .iter()
            .map(|elf| trace::with_section_names(elf))
            .collect();
        let mut mollusk = trace::traced_mollusk(&first.id, &elfs[0]).map_err(|e| {
            HarnessError::Report(format!(
                "{}: cannot stage its traced copy: {e}",
                first.label()
            ))
        })?;
        mollusk.compute_budget.heap_size = first.family.heap_frame();
        keep_log(&mut mollusk);
        self.add_programs(&mut mollusk, programs, &elfs)?;
        let tracer = Tracer::default();
        tracer.install(&mut mollusk);
        Ok((mollusk, tracer))
    }

    /// Every program of `family`, and a Mollusk with all of them loaded.
    pub fn load(&self, family: Family) -> Result<(Vec<Program>, Mollusk), HarnessError> {
        self.load_from(self.programs()?, family, "programs")
    }

    /// The programs of `family` among `programs` (found under `folder`),
    /// and a Mollusk with all of them loaded.
    fn load_from(
        &self,
        programs: Vec<Program>,
        family: Family,
        folder: &str,
    ) -> Result<(Vec<Program>, Mollusk), HarnessError> {
        let programs: Vec<Program> = programs
            .into_iter()
            .filter(|p| p.family == family)
            .collect();
        if programs.is_empty() {
            return Err(HarnessError::NoPrograms(
                self.root.join(folder).join(family.name()),
            ));
        }
        let mollusk = self.mollusk(&programs)?;
        Ok((programs, mollusk))
    }

    fn relative(&self, path: &Path) -> PathBuf {
        path.strip_prefix(&self.root).unwrap_or(path).to_path_buf()
    }
}

/// Keeps the runtime's log, so a case can check the event it emits
/// ([`crate::Case::run`] empties it before each call).
fn keep_log(mollusk: &mut Mollusk) {
    mollusk.logger = Some(solana_svm_log_collector::LogCollector::new_ref_with_limit(
        None,
    ));
}

/// Mollusk panics on an ELF it cannot load; turn that into the reason.
fn add_program(mollusk: &mut Mollusk, program: &Program, elf: &[u8]) -> Result<(), String> {
    if !elf.starts_with(b"\x7fELF") {
        return Err("no ELF header".into());
    }
    // Silence only this thread's panic, one load at a time: a test on
    // another thread that panics meanwhile still prints its message.
    static LOADING: Mutex<()> = Mutex::new(());
    let _one_at_a_time = LOADING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let previous: Arc<dyn Fn(&panic::PanicHookInfo<'_>) + Send + Sync> = panic::take_hook().into();
    let forward = previous.clone();
    let loader = thread::current().id();
    panic::set_hook(Box::new(move |info| {
        if thread::current().id() != loader {
            forward(info);
        }
    }));
    let loaded = panic::catch_unwind(AssertUnwindSafe(|| {
        mollusk.add_program_with_loader_and_elf(
            &program.id,
            &solana_sdk_ids::bpf_loader_upgradeable::id(),
            elf,
        )
    }));
    panic::set_hook(Box::new(move |info| previous(info)));
    loaded.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .map(|message| message.replace("called `Result::unwrap()` on an `Err` value: ", ""))
            .unwrap_or_else(|| "the loader rejected it".into())
    })
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
fn newest_file(path: PathBuf) -> Option<(PathBuf, SystemTime)> {
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
