//! Program discovery and the checks that keep a missing, corrupt or stale
//! binary out of every run.

use std::{
    fs,
    panic::{self, AssertUnwindSafe},
    path::{Path, PathBuf},
    time::SystemTime,
};

use mollusk_svm::Mollusk;
use sha2::{Digest, Sha256};
use solana_pubkey::Pubkey;
use walkdir::WalkDir;

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
    #[error("{0}")]
    Report(String),
    #[error("program `{program}`, operation `{operation}`: {detail}")]
    WrongResult {
        program: String,
        operation: String,
        detail: String,
    },
}

/// A benchmark program: a folder `programs/<name>/` whose package is
/// `<name>-program`, built to `target/deploy/<name>.so`.
#[derive(Clone, Debug)]
pub struct Program {
    pub name: String,
    pub id: Pubkey,
    pub dir: PathBuf,
    pub so_path: PathBuf,
}

impl Program {
    /// Ids come from the folder name alone, so they are the same on every
    /// machine and for every run.
    pub fn id_for(name: &str) -> Pubkey {
        let digest = Sha256::digest(format!("serialization-bench/program/{name}"));
        Pubkey::new_from_array(digest.into())
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

/// A checkout of this workspace (or, in tests, a copy of one).
#[derive(Clone, Debug)]
pub struct Workspace {
    pub root: PathBuf,
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
        Self { root: root.into() }
    }

    pub fn deploy_dir(&self) -> PathBuf {
        self.root.join("target/deploy")
    }

    pub fn benches_dir(&self) -> PathBuf {
        self.root.join("target/benches")
    }

    pub fn baseline_path(&self) -> PathBuf {
        self.root.join("benches/baseline.json")
    }

    /// The no-op floor program, `benches/noop`, where the workspace has it.
    pub fn floor(&self) -> Option<Program> {
        let dir = self.root.join("benches/noop");
        dir.join("Cargo.toml").is_file().then(|| Program {
            name: "noop".into(),
            id: Program::id_for("noop"),
            so_path: self.deploy_dir().join("noop.so"),
            dir,
        })
    }

    /// Every folder under `programs/` that has a `Cargo.toml`, by name.
    pub fn programs(&self) -> Result<Vec<Program>, HarnessError> {
        let programs_dir = self.root.join("programs");
        let mut programs: Vec<Program> = fs::read_dir(&programs_dir)
            .map_err(|_| HarnessError::NoPrograms(programs_dir.clone()))?
            .filter_map(Result::ok)
            .filter(|entry| entry.path().join("Cargo.toml").is_file())
            .filter_map(|entry| entry.file_name().into_string().ok())
            .map(|name| Program {
                id: Program::id_for(&name),
                dir: programs_dir.join(&name),
                so_path: self.deploy_dir().join(format!("{name}.so")),
                name,
            })
            .collect();
        if programs.is_empty() {
            return Err(HarnessError::NoPrograms(programs_dir));
        }
        programs.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(programs)
    }

    /// The program's ELF, once it is known to exist and to be newer than
    /// every source it is built from.
    pub fn elf(&self, program: &Program) -> Result<Vec<u8>, HarnessError> {
        let built = fs::metadata(&program.so_path)
            .and_then(|meta| meta.modified())
            .map_err(|_| HarnessError::Missing {
                program: program.name.clone(),
                path: self.relative(&program.so_path),
            })?;
        let inputs = SHARED_INPUTS.iter().map(|p| self.root.join(p));
        if let Some((source, _)) = std::iter::once(program.dir.clone())
            .chain(inputs)
            .flat_map(newest_file)
            .filter(|(_, modified)| *modified > built)
            .max_by_key(|(_, modified)| *modified)
        {
            return Err(HarnessError::Stale {
                program: program.name.clone(),
                path: self.relative(&program.so_path),
                source_file: self.relative(&source),
            });
        }
        fs::read(&program.so_path).map_err(|_| HarnessError::Missing {
            program: program.name.clone(),
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

    /// A Mollusk with each program loaded from its already checked ELF.
    pub fn mollusk_with(
        &self,
        programs: &[Program],
        elfs: &[Vec<u8>],
    ) -> Result<Mollusk, HarnessError> {
        let mut mollusk = Mollusk::default();
        for (program, elf) in programs.iter().zip(elfs) {
            add_program(&mut mollusk, program, elf).map_err(|reason| HarnessError::Invalid {
                program: program.name.clone(),
                path: self.relative(&program.so_path),
                reason,
            })?;
        }
        Ok(mollusk)
    }

    /// Every program, and a Mollusk with all of them loaded.
    pub fn load(&self) -> Result<(Vec<Program>, Mollusk), HarnessError> {
        let programs = self.programs()?;
        let mollusk = self.mollusk(&programs)?;
        Ok((programs, mollusk))
    }

    fn relative(&self, path: &Path) -> PathBuf {
        path.strip_prefix(&self.root).unwrap_or(path).to_path_buf()
    }
}

/// Mollusk panics on an ELF it cannot load; turn that into the reason.
fn add_program(mollusk: &mut Mollusk, program: &Program, elf: &[u8]) -> Result<(), String> {
    if !elf.starts_with(b"\x7fELF") {
        return Err("no ELF header".into());
    }
    let quiet = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let loaded = panic::catch_unwind(AssertUnwindSafe(|| {
        mollusk.add_program_with_loader_and_elf(
            &program.id,
            &solana_sdk_ids::bpf_loader_upgradeable::id(),
            elf,
        )
    }));
    panic::set_hook(quiet);
    loaded.map_err(|payload| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .map(|message| message.replace("called `Result::unwrap()` on an `Err` value: ", ""))
            .unwrap_or_else(|| "the loader rejected it".into())
    })
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
