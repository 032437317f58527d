//! What a program is: its family, framework and length shape, its label,
//! id and package, and the files its build depends on.

use std::{
    fs,
    path::{Path, PathBuf},
};

use sha2::{Digest, Sha256};
use solana_pubkey::Pubkey;

use crate::error::HarnessError;
pub use crate::framework::Framework;

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
    /// framework's is its name and the path (`<framework>/token/account`).
    pub fn label_in(framework: Framework, family: Family, shape: Shape, name: &str) -> String {
        match framework {
            Framework::PINOCCHIO => Self::label_of(family, shape, name),
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
    /// (`<framework>-token-borsh-account`).
    pub fn package(&self) -> String {
        match (self.framework, self.family) {
            (Framework::PINOCCHIO, Family::Token) => format!("{}-program", self.name),
            (Framework::PINOCCHIO, family) => format!("{}-{}-program", self.name, family.name()),
            // The token family's own folders (`token/<crate>`), and the floor.
            (Framework::SOLANA_PROGRAM, _) => {
                format!("{}-program", self.name.trim_start_matches("token/"))
            }
            (other, _) => format!("{}-{}", other.name(), self.name.replace(['/', '_'], "-")),
        }
    }

    /// What must be older than the program's `.so` besides its own folder:
    /// its workspace's manifest, lock and build configuration, what the
    /// registry names in its framework's folder, and the std sources `make
    /// setup` installed where it is built with std.
    pub(crate) fn shared_inputs(&self) -> Vec<String> {
        let framework = self.framework;
        let mut inputs: Vec<String> = match framework.is_built_in() {
            true => vec!["common".into(), "Cargo.toml".into(), "Cargo.lock".into()],
            false => {
                let own = framework.workspace();
                ["Cargo.toml", "Cargo.lock"]
                    .iter()
                    .map(|f| f.to_string())
                    .chain(framework.entry().inputs.iter().cloned())
                    .map(|f| format!("{own}/{f}"))
                    .collect()
            }
        };
        inputs.extend(BUILD_CONFIGURATION.map(String::from));
        if framework.entry().std {
            inputs.extend(STD_INPUTS.map(String::from));
        }
        inputs
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

/// What pins every program's build (of `.cargo/`, the three files an SBF
/// build reads).
const BUILD_CONFIGURATION: [&str; 4] = [
    "rust-toolchain.toml",
    ".cargo/config.toml",
    ".cargo/trim-paths.toml",
    ".cargo/line-tables.toml",
];

/// What a program built with `std` is built from besides: the target and
/// the std sources `make setup` installed.
const STD_INPUTS: [&str; 2] = ["benches/std", ".tools/std/.installed"];

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
