//! `make deployed`: one program's source as mainnet runs it and as this
//! project's route builds it, on the same calls. Token-2022's ELF as
//! deployed ships in `mollusk-svm-programs-token-2022` (dumped from
//! mainnet; its security.txt names `token-2022-v7.0.0`), and `make
//! published` builds `spl-token-2022` 7.0.0 from crates.io here.
//!
//! [`token_2022`] makes the calls a team's tests would, on the deployed
//! program, and writes each as a fixture; both builds then replay every
//! fixture (`make profile SO= BASE=`, [`crate::compare`]), which must give
//! the same result and accounts, and the table sets their CUs side by
//! side.

pub mod token_2022;

use std::{
    collections::BTreeMap,
    fmt::Write as _,
    fs,
    path::{Path, PathBuf},
};

use benches::Workspace;
use sha2::{Digest, Sha256};

use crate::{Options, compare};

/// The deployed ELF's sha256, as `mollusk-svm-programs-token-2022` 0.16.4
/// ships it: a different file is another program.
pub const DEPLOYED_SHA256: &str =
    "b2a7ce1ea6dfbcbc5ccb0e7f48f7c61dced1a86582d1c7d2e059ac54ed612da4";

/// Where `make deployed` writes: the fixtures and `summary.md`.
pub fn out_dir(workspace: &Workspace) -> PathBuf {
    workspace.benches_dir().join("deployed")
}

/// The build here, as `make published` leaves it.
pub fn built_so(workspace: &Workspace) -> PathBuf {
    workspace.deploy_dir().join("published/spl_token_2022.so")
}

/// What `make deployed` found.
pub struct Deployed {
    pub diff: compare::Comparison,
    /// The two programs' sizes in bytes: (deployed, built here).
    pub sizes: (u64, u64),
}

/// Writes the deployed ELF beside the programs (checked to be the one
/// mainnet ran), the calls as fixtures, and runs both builds on them.
pub fn run(workspace: &Workspace) -> Result<Deployed, String> {
    let built = built_so(workspace);
    if !built.is_file() {
        return Err(format!(
            "{}: Token-2022 as built here is missing; run make published",
            built.display()
        ));
    }
    let elf = mollusk_svm_programs_token_2022::ELF;
    let sha256 = format!("{:x}", Sha256::digest(elf));
    if sha256 != DEPLOYED_SHA256 {
        return Err(format!(
            "mollusk-svm-programs-token-2022's ELF has sha256 {sha256}, not the deployed program's {DEPLOYED_SHA256}: check Cargo.lock's pin"
        ));
    }
    let deployed = workspace.deploy_dir().join("deployed/token_2022.so");
    write(&deployed, elf)?;
    let out = out_dir(workspace);
    let fixtures = out.join("fixtures");
    if fixtures.exists() {
        fs::remove_dir_all(&fixtures)
            .map_err(|e| format!("emptying {}: {e}", fixtures.display()))?;
    }
    fs::create_dir_all(&fixtures).map_err(|e| format!("creating {}: {e}", fixtures.display()))?;
    write_fixtures(&fixtures)?;
    let options = Options {
        so: built.clone(),
        fixtures,
        discriminator: 1,
        idl: None,
        idl_runs: workspace.benches_dir().join("idl"),
        traces: None,
        heap: None,
    };
    let diff = compare::run(&options, &deployed)?;
    if let Some(change) = diff.behaviour.first() {
        return Err(format!(
            "{}: Token-2022 as built here answers differently from the deployed program: {}",
            change.fixture, change.differs
        ));
    }
    if let Some(refused) = diff.not_compared().first() {
        return Err(format!(
            "{}: not run by both builds: {}",
            refused.fixture, refused.reason
        ));
    }
    let size = |path: &Path| {
        fs::metadata(path)
            .map(|m| m.len())
            .map_err(|e| format!("{}: {e}", path.display()))
    };
    let sizes = (size(&deployed)?, size(&built)?);
    let found = Deployed { diff, sizes };
    write(&out.join("summary.md"), summary(&found).as_bytes())?;
    // Each build's profile (as `make profile SO=` writes it), then the
    // comparison (as with `BASE=`).
    for run in [&found.diff.new, &found.diff.base] {
        crate::report::write(&crate::out_dir(&workspace.root, &run.so), run)?;
    }
    compare::report::write(
        &compare::out_dir(&workspace.root, &found.diff.new),
        &found.diff,
        None,
    )?;
    Ok(found)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    }
    fs::write(path, bytes).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Runs each call on the deployed program, loaded as its crate loads it,
/// checks what it did, and writes it as a fixture into `dir`.
fn write_fixtures(dir: &Path) -> Result<(), String> {
    let mut mollusk = mollusk_svm::Mollusk::default();
    mollusk_svm_programs_token_2022::add_program(&mut mollusk);
    let rent = mollusk.sysvars.rent.clone();
    for call in token_2022::calls(&|len| rent.minimum_balance(len)) {
        let result = mollusk.process_instruction(&call.instruction, &call.accounts);
        let outcome = match &result.program_result {
            mollusk_svm::result::ProgramResult::Success => token_2022::Expect::Succeeds,
            mollusk_svm::result::ProgramResult::Failure(
                solana_program_error::ProgramError::Custom(code),
            ) => token_2022::Expect::Fails(*code),
            other => {
                return Err(format!(
                    "{}: the deployed Token-2022 answered {other:?}",
                    call.name
                ));
            }
        };
        if outcome != call.expect {
            return Err(format!(
                "{}: the deployed Token-2022 answered {outcome:?}, the call expects {:?}",
                call.name, call.expect
            ));
        }
        fixtures::write_fixture(
            dir,
            call.name,
            &mollusk,
            (&call.instruction, &call.accounts),
            &result,
        )?;
    }
    Ok(())
}

/// The built program's CUs as a share of the deployed one's, in percent.
fn percent_of(cus: u64, base: u64) -> f64 {
    100.0 * cus as f64 / base as f64
}

/// The median of the calls' shares, in percent, and how many calls.
pub fn median_percent(found: &Deployed) -> (u64, usize) {
    let mut shares: Vec<f64> = found
        .diff
        .compared
        .iter()
        .map(|c| percent_of(c.cost.cus, c.cost.base_cus))
        .collect();
    shares.sort_by(f64::total_cmp);
    let n = shares.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => shares[n / 2],
        _ => (shares[n / 2 - 1] + shares[n / 2]) / 2.0,
    };
    (median.round() as u64, n)
}

/// The README's sentence: the median share, over how many calls.
pub fn readme_sentence(found: &Deployed) -> String {
    let (median, calls) = median_percent(found);
    format!(
        "on Token-2022 7.0.0 this route spends {median}% of what the deployed build spends, median over {calls} instructions"
    )
}

/// docs/toolchain.md's table: each call's CUs as deployed and here, and
/// the two programs' sizes.
pub fn table(found: &Deployed) -> String {
    let mut out = String::from(
        "| call | instruction | deployed (CUs) | this route (CUs) | this route / deployed |\n|---|---|---:|---:|---:|\n",
    );
    for c in &found.diff.compared {
        let name = c.fixture.trim_end_matches(".json");
        writeln!(
            out,
            "| `{name}` | `{}` | {} | {} | {:.0}% |",
            c.instruction,
            c.cost.base_cus,
            c.cost.cus,
            percent_of(c.cost.cus, c.cost.base_cus)
        )
        .expect("writing to a String");
    }
    let (median, calls) = median_percent(found);
    let (deployed, built) = found.sizes;
    writeln!(
        out,
        "| median of {calls} | | | | {median}% |\n\nProgram size: {} bytes as deployed (sBPF {}), {} bytes built here (sBPF {}, {:.0}%).",
        benches::numbers::thousands(deployed),
        sbpf_version(&found.diff.base.so.elf),
        benches::numbers::thousands(built),
        sbpf_version(&found.diff.new.so.elf),
        percent_of(built, deployed)
    )
    .expect("writing to a String");
    out
}

/// The sBPF version an ELF's header names (`e_flags`: 0 for v0, 3 for v3).
fn sbpf_version(elf: &[u8]) -> String {
    match elf.get(48..52) {
        Some(flags) => format!(
            "v{}",
            u32::from_le_bytes(flags.try_into().expect("four bytes"))
        ),
        None => "unknown".into(),
    }
}

/// The call whose CUs [`parts`] splits in the docs: the most common.
pub const SPLIT_CALL: &str = "transfer.json";

/// One frame called by `entrypoint` in a call's profile: its name (the
/// deployed build's by address), its CUs with everything under it, and
/// the syscalls among them.
pub struct Part {
    pub frame: String,
    pub cus: u64,
    pub syscalls: BTreeMap<String, u64>,
}

/// `profile`'s CUs by the frame under `entrypoint` they are spent in
/// (`entrypoint`'s own CUs as `(itself)`), most first.
pub fn parts(profile: &benches::profile::Profile) -> Vec<Part> {
    let mut by_frame: BTreeMap<String, Part> = BTreeMap::new();
    for (stack, &cus) in &profile.stacks {
        let below = stack
            .iter()
            .position(|frame| frame == "entrypoint")
            .map_or(&stack[..], |at| &stack[at + 1..]);
        let frame = below.first().map_or("(itself)", String::as_str);
        let part = by_frame.entry(frame.to_string()).or_insert_with(|| Part {
            frame: frame.to_string(),
            cus: 0,
            syscalls: BTreeMap::new(),
        });
        part.cus += cus;
        if let Some(syscall) = below.iter().find_map(|f| f.strip_prefix("syscall:")) {
            *part.syscalls.entry(syscall.to_string()).or_default() += cus;
        }
    }
    let mut parts: Vec<Part> = by_frame.into_values().collect();
    parts.sort_by(|a, b| b.cus.cmp(&a.cus).then_with(|| a.frame.cmp(&b.frame)));
    parts
}

/// The docs' split of [`SPLIT_CALL`]: each build's frames under
/// `entrypoint`, with the syscalls in each.
pub fn split_table(found: &Deployed) -> String {
    let mut out = format!(
        "| build (`{}`) | frame under `entrypoint` | CUs | of which syscalls |\n|---|---|---:|---|\n",
        SPLIT_CALL.trim_end_matches(".json")
    );
    for (build, run) in [
        ("deployed", &found.diff.base),
        ("this route", &found.diff.new),
    ] {
        let Some(call) = run.profiled.iter().find(|p| p.fixture == SPLIT_CALL) else {
            continue;
        };
        for part in parts(&call.profile) {
            let syscalls: Vec<String> = part
                .syscalls
                .iter()
                .map(|(name, cus)| format!("`{name}` {cus}"))
                .collect();
            let frame = match part.frame.as_str() {
                "(itself)" => part.frame.clone(),
                name => format!("`{}`", name.replace('|', "\\|")),
            };
            writeln!(
                out,
                "| {build} | {frame} | {} | {} |",
                part.cus,
                syscalls.join(", ")
            )
            .expect("writing to a String");
        }
    }
    out
}

/// What docs/toolchain.md holds between its `deployed` marks.
pub fn docs_block(found: &Deployed) -> String {
    format!("{}\n{}", table(found), split_table(found))
}

/// `target/benches/deployed/summary.md`.
pub fn summary(found: &Deployed) -> String {
    format!(
        "# Token-2022 7.0.0: as deployed and as built here\n\n{}.\n\n{}",
        readme_sentence(found),
        docs_block(found)
    )
}

/// The marks around what `make deployed` writes into the README (its
/// toolchain sentence's ratio) and docs/toolchain.md (the tables).
pub const MARKS: (&str, &str) = benches::report::prose::DEPLOYED;

/// The README's and docs/toolchain.md's marked text set to this run's:
/// what differed (`file: ...`), written back where `write` is set.
pub fn docs(root: &Path, found: &Deployed, write: bool) -> Result<Vec<String>, String> {
    let (open, close) = MARKS;
    let mut differs = Vec::new();
    for (file, wanted) in [
        ("README.md", readme_sentence(found)),
        ("docs/toolchain.md", format!("\n{}", docs_block(found))),
    ] {
        let path = root.join(file);
        let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let start = text
            .find(open)
            .map(|at| at + open.len())
            .ok_or(format!("{file}: no `{open}` mark"))?;
        let end = text[start..]
            .find(close)
            .map(|at| start + at)
            .ok_or(format!("{file}: `{open}` is not closed by `{close}`"))?;
        if text[start..end] != wanted {
            differs.push(format!(
                "{file}: the `{open}` text is not this run's:\n{wanted}"
            ));
            if write {
                let text = format!("{}{wanted}{}", &text[..start], &text[end..]);
                fs::write(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))?;
            }
        }
    }
    Ok(differs)
}
