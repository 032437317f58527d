//! Where the stack runs out (`make sweep`): for every crate under
//! `programs/stack/` (common/src/stack.rs), `N` token `Account`s in one
//! account, `full` decoded by value and in the crate's off-stack way, each
//! `N` and variant a build of its own. A build the linker refuses (a frame
//! past 4,096 bytes) and a run that faults are results, not failures.

use std::{
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use mollusk_svm::result::ProgramResult;
use solana_account::Account as SolanaAccount;
use solana_instruction::{AccountMeta, Instruction};
use solana_pubkey::Pubkey;

use crate::{
    HarnessError, Program, Workspace, reproducible,
    token::{ACCOUNT_LEN, Encoding, raw_fixture},
    trace::{self, Footprint, Tracer},
};

/// The record's sizes, in accounts (160 bytes to 5 KB).
/// The table `docs/stack-and-heap.md` quotes, committed: `make
/// sweep-baseline` writes it from a run.
pub const COMMITTED: &str = "benches/sweep.md";

pub const SIZES: [usize; 5] = [1, 8, 16, 24, 32];
/// The two ways to decode it.
pub const VARIANTS: [Variant; 2] = [Variant::ByValue, Variant::OffStack];

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Variant {
    ByValue,
    OffStack,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Self::ByValue => "by value",
            Self::OffStack => "off the stack",
        }
    }
}

/// What one build and run came to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Attempt {
    /// The linker refused a frame past 4,096 bytes.
    LinkRefused,
    /// It ran and left the expected bytes.
    Ran { cus: u64, footprint: Footprint },
    /// The VM stopped it (an access violation, say).
    Fault(String),
    /// It returned an error, or left other bytes.
    Wrong(String),
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct Point {
    #[serde(rename = "crate")]
    pub krate: String,
    pub variant: Variant,
    pub accounts: usize,
    pub bytes: usize,
    pub outcome: Attempt,
}

/// The crates with a sweep program, by folder name.
pub fn crates(workspace: &Workspace) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(workspace.root.join("programs/stack"))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.path().join("Cargo.toml").is_file())
        .filter_map(|e| e.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// Builds `krate`'s sweep program for `accounts` and `variant`: its
/// `.so`, or `None` where the linker refused the frame.
pub fn build(
    workspace: &Workspace,
    krate: &str,
    accounts: usize,
    variant: Variant,
) -> Result<Option<PathBuf>, HarnessError> {
    let package = format!("{krate}-stack-program");
    let mut features = vec![format!("common/n{accounts}")];
    if variant == Variant::OffStack {
        features.push("common/off_stack".into());
    }
    if accounts == 1 {
        features.remove(0);
    }
    let output = reproducible::cargo_build(&workspace.root)
        .args(["-Z", "build-std=core,alloc", "--release"])
        .args(["--target", "bpfel-unknown-none", "-p", &package])
        .args(["--features", &features.join(",")])
        .output()
        .map_err(|e| HarnessError::Report(format!("sweep: running cargo for {package}: {e}")))?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        if stderr.contains("BPF stack limit is exceeded") {
            return Ok(None);
        }
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        return Err(HarnessError::Report(format!(
            "sweep: {package} with {} did not build, and not for its stack; run `make setup`, then `make sweep` again. cargo said:\n{}",
            features.join(","),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        )));
    }
    let built = workspace
        .root
        .join("target/bpfel-unknown-none/release")
        .join(format!("lib{}.so", package.replace('-', "_")));
    let so = workspace
        .root
        .join("target/sweep")
        .join(krate)
        .join(format!("{}_{accounts}.so", variant_dir(variant)));
    fs::create_dir_all(so.parent().expect("a folder"))
        .map_err(|e| e.to_string())
        .and_then(|()| split_debug::write(&built, &so))
        .map_err(|e| HarnessError::Report(format!("sweep: installing {}: {e}", built.display())))?;
    Ok(Some(so))
}

fn variant_dir(variant: Variant) -> &'static str {
    match variant {
        Variant::ByValue => "by_value",
        Variant::OffStack => "off_stack",
    }
}

/// The raw bytes of the record's `i`th account: the token fixture with
/// its first byte made distinct.
fn raw_account(i: usize) -> [u8; ACCOUNT_LEN] {
    let mut raw = raw_fixture();
    raw[0] = i as u8;
    raw
}

/// The record in `encoding`, and what `full` must leave: the last
/// account's amount (bytes 64..72 of the raw account) plus one.
pub fn record(encoding: Encoding, accounts: usize) -> (Vec<u8>, Vec<u8>) {
    let raws: Vec<[u8; ACCOUNT_LEN]> = (0..accounts).map(raw_account).collect();
    let mut after = raws.clone();
    let last = after.last_mut().expect("at least one account");
    let amount = u64::from_le_bytes(last[64..72].try_into().expect("8 bytes"));
    last[64..72].copy_from_slice(&amount.wrapping_add(1).to_le_bytes());
    let encode = |raws: &[[u8; ACCOUNT_LEN]]| -> Vec<u8> {
        raws.iter().flat_map(|raw| encoding.encode(raw)).collect()
    };
    (encode(&raws), encode(&after))
}

/// Runs the program at `so` on the record, traced.
pub fn run(so: &Path, encoding: Encoding, accounts: usize) -> Attempt {
    let program = Pubkey::new_unique();
    let mut mollusk = match std::fs::read(so).and_then(|elf| trace::traced_mollusk(&program, &elf))
    {
        Ok(mollusk) => mollusk,
        Err(e) => return Attempt::Fault(format!("{}: {e}", so.display())),
    };
    let tracer = Tracer::default();
    tracer.install(&mut mollusk);
    let (data, expected) = record(encoding, accounts);
    let key = Pubkey::new_unique();
    let account = SolanaAccount {
        lamports: 1_000_000_000,
        data,
        owner: program,
        ..SolanaAccount::default()
    };
    let instruction = Instruction::new_with_bytes(program, &[], vec![AccountMeta::new(key, false)]);
    let result = mollusk.process_instruction(&instruction, &[(key, account)]);
    let footprint = tracer.take().first().copied().unwrap_or_default();
    match result.program_result {
        ProgramResult::Success if result.resulting_accounts[0].1.data == expected => Attempt::Ran {
            cus: result.compute_units_consumed,
            footprint,
        },
        ProgramResult::Success => Attempt::Wrong("left other bytes than expected".into()),
        ProgramResult::Failure(error) => Attempt::Wrong(format!("{error:?}")),
        ProgramResult::UnknownError(error) => Attempt::Fault(format!("{error:?}")),
    }
}

/// Every crate, variant and size: built, run, recorded.
pub fn sweep(workspace: &Workspace) -> Result<Vec<Point>, HarnessError> {
    let mut points = Vec::new();
    for krate in crates(workspace) {
        // How each `Account` is encoded: `[package.metadata.token]`, as
        // in the token family.
        let dir = workspace.root.join("programs/stack").join(&krate);
        let encoding = Program::encoding_in(&dir, &krate)?;
        for variant in VARIANTS {
            for accounts in SIZES {
                let outcome = match build(workspace, &krate, accounts, variant)? {
                    Some(so) => run(&so, encoding, accounts),
                    None => Attempt::LinkRefused,
                };
                eprintln!(
                    "sweep: {krate}, {}, N = {accounts}: {outcome:?}",
                    variant.name()
                );
                points.push(Point {
                    krate: krate.clone(),
                    variant,
                    accounts,
                    bytes: record(encoding, accounts).0.len(),
                    outcome,
                });
            }
        }
    }
    Ok(points)
}

/// The table: a row per crate and variant, a column per `N`.
pub fn markdown(points: &[Point]) -> String {
    let mut out = String::from(
        "# Where the stack runs out\n\n`full` on N token `Account`s (160 bytes each) in one account: decode them all, add 1 to the last one's amount, encode them back. Each cell: CUs / stack bytes of the deepest frame (of 4,096), or *link refused* (a frame past 4,096 bytes: the linker refuses the program), or the fault.\n\n| crate | variant |",
    );
    for n in SIZES {
        let _ = write!(out, " N = {n} ({} B) |", n * ACCOUNT_LEN);
    }
    out.push_str("\n|---|---|");
    out.push_str(&"---:|".repeat(SIZES.len()));
    out.push('\n');
    let mut rows: Vec<(&str, Variant)> = points
        .iter()
        .map(|p| (p.krate.as_str(), p.variant))
        .collect();
    rows.dedup();
    for (krate, variant) in rows {
        let _ = write!(out, "| {krate} | {} |", variant.name());
        for n in SIZES {
            let cell = points
                .iter()
                .find(|p| p.krate == krate && p.variant == variant && p.accounts == n)
                .map_or("-".to_string(), |p| match &p.outcome {
                    Attempt::Ran { cus, footprint } => format!("{cus} / {}", footprint.stack_bytes),
                    Attempt::LinkRefused => "link refused".into(),
                    Attempt::Fault(fault) => format!("fault: {fault}"),
                    Attempt::Wrong(what) => format!("wrong: {what}"),
                });
            let _ = write!(out, " {cell} |");
        }
        out.push('\n');
    }
    out
}
