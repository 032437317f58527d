//! What a program is: its family, framework and length shape, its label,
//! id and package, and the files its build depends on.

use std::{
    fs,
    path::{Path, PathBuf},
};

use sha2::{Digest, Sha256};
use solana_pubkey::Pubkey;

use crate::error::HarnessError;

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
/// Anchor 1.x (`anchor1`), Anchor 2 (`anchor2`), typhoon (`typhoon`),
/// Steel (`steel`), star_frame (`star_frame`), Hopper (`hopper`).
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
    Steel,
    StarFrame,
    Hopper,
}

impl Framework {
    pub const ALL: [Framework; 8] = [
        Framework::Pinocchio,
        Framework::SolanaProgram,
        Framework::Anchor1,
        Framework::Anchor2,
        Framework::Typhoon,
        Framework::Steel,
        Framework::StarFrame,
        Framework::Hopper,
    ];
    /// The frameworks beside pinocchio, each measured in its own group.
    pub const OTHERS: [Framework; 7] = [
        Framework::SolanaProgram,
        Framework::Anchor1,
        Framework::Anchor2,
        Framework::Typhoon,
        Framework::Steel,
        Framework::StarFrame,
        Framework::Hopper,
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
            Self::Steel => "steel",
            Self::StarFrame => "star_frame",
            Self::Hopper => "hopper",
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
            Self::Steel => "Steel",
            Self::StarFrame => "star_frame",
            Self::Hopper => "Hopper",
        }
    }

    /// The framework's crate, as its programs' lock names it.
    pub const fn crate_name(self) -> &'static str {
        match self {
            Self::Pinocchio => "pinocchio",
            Self::SolanaProgram => "solana-program",
            Self::Anchor1 | Self::Anchor2 => "anchor-lang",
            Self::Typhoon => "typhoon",
            Self::Steel => "steel",
            Self::StarFrame => "star_frame",
            Self::Hopper => "hopper-lang",
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
            Self::Steel => "programs/steel",
            Self::StarFrame => "programs/star_frame",
            Self::Hopper => "programs/hopper",
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
    pub(crate) fn shared_inputs(&self) -> &'static [&'static str] {
        match self.framework {
            Framework::Pinocchio => &SHARED_INPUTS,
            Framework::SolanaProgram => &STD_INPUTS,
            Framework::Anchor1 => &ANCHOR1_INPUTS,
            Framework::Anchor2 => &ANCHOR2_INPUTS,
            Framework::Typhoon => &TYPHOON_INPUTS,
            Framework::Steel => &STEEL_INPUTS,
            Framework::StarFrame => &STAR_FRAME_INPUTS,
            Framework::Hopper => &HOPPER_INPUTS,
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
}

/// The files that must be older than a program's `.so`: its own folder, the
/// shared crate, and what pins the build (of `.cargo/`, the three files an
/// SBF build reads).
const SHARED_INPUTS: [&str; 7] = [
    "common",
    "Cargo.toml",
    "Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
];

/// The same for the programs built with `std` in this workspace, and the
/// std sources `make setup` installed.
const STD_INPUTS: [&str; 9] = [
    "common",
    "Cargo.toml",
    "Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
    "benches/std",
    ".tools/std/.installed",
];

/// The same for the Anchor 1.x programs' workspace, the types its
/// programs share, and the std they are built with.
const ANCHOR1_INPUTS: [&str; 9] = [
    "programs/anchor1/Cargo.toml",
    "programs/anchor1/Cargo.lock",
    "programs/anchor1/records",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
    "benches/std",
    ".tools/std/.installed",
];

/// The same for the Steel programs' workspace and the std they are built
/// with.
const STEEL_INPUTS: [&str; 8] = [
    "programs/steel/Cargo.toml",
    "programs/steel/Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
    "benches/std",
    ".tools/std/.installed",
];

/// The same for the star_frame programs' workspace and the std they are
/// built with.
const STAR_FRAME_INPUTS: [&str; 8] = [
    "programs/star_frame/Cargo.toml",
    "programs/star_frame/Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
    "benches/std",
    ".tools/std/.installed",
];

/// The same for the Hopper programs' workspace, built for the std target
/// (its runtime's `target_os = "solana"` paths) though it uses no `std`.
const HOPPER_INPUTS: [&str; 8] = [
    "programs/hopper/Cargo.toml",
    "programs/hopper/Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
    "benches/std",
    ".tools/std/.installed",
];

/// The same for the typhoon programs' workspace.
const TYPHOON_INPUTS: [&str; 6] = [
    "programs/typhoon/Cargo.toml",
    "programs/typhoon/Cargo.lock",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
];

/// The same for the Anchor 2 programs' workspace, the types its programs
/// share, and the anchor-lang it is built with, as `make setup` installed
/// it.
const ANCHOR2_INPUTS: [&str; 9] = [
    "programs/anchor2/Cargo.toml",
    "programs/anchor2/Cargo.lock",
    "programs/anchor2/records",
    "programs/anchor2/.cargo",
    "programs/anchor2/.anchor-lang/.installed",
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
];

/// A TOML file's table; empty where it is missing or unreadable.
pub(crate) fn read_toml(path: &Path) -> toml::Table {
    fs::read_to_string(path)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or_default()
}

/// How a program stores `Account`: the raw 160 bytes (every fixed-width
/// format), or a varint encoding of the same fields. A program names its
/// encoding in its Cargo.toml (`[package.metadata.token] encoding = ...`);
/// without one it is `raw`. Its bytes are `token::record`'s.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Encoding {
    /// The `repr(C)` layout: fields in order, integers little-endian.
    Raw,
    /// postcard: each `u64` an LEB128 varint (7 bits a byte, low first; up
    /// to 10 bytes, the 10th at most 1); bytes as they are.
    Postcard,
    /// bincode 2's `standard()`: each `u64` one byte below 251, else tag
    /// 251/252/253 and the value in 2/4/8 little-endian bytes (254 and 255
    /// are refused); bytes as they are.
    BincodeVarint,
}

impl Encoding {
    pub const ALL: [Encoding; 3] = [Self::Raw, Self::Postcard, Self::BincodeVarint];

    pub const fn name(self) -> &'static str {
        match self {
            Self::Raw => "raw",
            Self::Postcard => "postcard",
            Self::BincodeVarint => "bincode_varint",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }
}
