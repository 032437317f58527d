//! Replays every case `make bench` measured in Mollusk
//! (target/benches/cases.json) as a transaction in LiteSVM, with the same
//! program bytes and accounts, and compares the program's compute units
//! (the transaction's, less what the transaction adds, measured on the
//! no-op program) and account [0]'s data with Mollusk's.
//!
//! Two passes: with every runtime feature enabled, as Mollusk runs (every
//! case must be equal, or this exits non-zero), and with the features
//! active on mainnet, LiteSVM's default (reported: cases that fault there
//! are listed with the runtime's error, and must be the rows
//! benches/mainnet.json names: `make bench` marks those in every table;
//! `baseline` rewrites it). Writes target/benches/litesvm.md and
//! litesvm.json, and the pass's line into summary.md.

use std::{collections::BTreeMap, fs, path::PathBuf, process::ExitCode};

use agave_feature_set::FeatureSet;
use base64::{Engine, prelude::BASE64_STANDARD};
use litesvm::LiteSVM;
use serde::{Deserialize, Serialize};
use solana_account::Account;
use solana_compute_budget_interface::ComputeBudgetInstruction;
use solana_instruction::{AccountMeta, Instruction};
use solana_keypair::Keypair;
use solana_pubkey::Pubkey;
use solana_signer::Signer;
use solana_transaction::Transaction;
use solana_transaction_error::TransactionError;

/// The most compute units a transaction may request (and Mollusk's budget).
const MAX_COMPUTE_UNIT_LIMIT: u32 = 1_400_000;
/// The runtime's default heap frame: no `RequestHeapFrame` needed.
const DEFAULT_HEAP: u32 = 32 * 1024;

#[derive(Deserialize)]
struct Cases {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    row: String,
    program_id: String,
    so: String,
    heap_frame: u32,
    instruction_data: String,
    accounts: Vec<AccountData>,
    data_after: Option<String>,
    /// The program error an error-path row ends with (`InvalidArgument`).
    #[serde(default)]
    error: Option<String>,
    cus: u64,
}

#[derive(Deserialize)]
struct AccountData {
    pubkey: String,
    is_signer: bool,
    is_writable: bool,
    lamports: u64,
    owner: String,
    data: String,
}

fn key(text: &str) -> Result<Pubkey, String> {
    text.parse().map_err(|e| format!("key {text}: {e:?}"))
}

fn bytes(text: &str) -> Result<Vec<u8>, String> {
    BASE64_STANDARD
        .decode(text)
        .map_err(|e| format!("base64: {e}"))
}

/// One replayed case: LiteSVM's CUs for the transaction, and whether
/// account [0] ended as Mollusk left it.
struct Replay {
    transaction_cus: u64,
    data_equal: bool,
}

/// `heap_frame` is the frame to request, when it is not the default; such a
/// transaction also asks for the most compute a transaction may have
/// (Mollusk's budget), since the largest message rows need more than the
/// default 200,000.
fn replay(
    svm: &mut LiteSVM,
    payer: &Keypair,
    case: &Case,
    heap_frame: Option<u32>,
) -> Result<Replay, String> {
    let program_id = key(&case.program_id)?;
    let mut metas = Vec::new();
    for account in &case.accounts {
        let pubkey = key(&account.pubkey)?;
        metas.push(AccountMeta {
            pubkey,
            is_signer: account.is_signer,
            is_writable: account.is_writable,
        });
        // The program itself (an `emit_cpi` call passes it) is the one
        // already loaded.
        if pubkey == program_id {
            continue;
        }
        svm.set_account(
            pubkey,
            Account {
                lamports: account.lamports,
                data: bytes(&account.data)?,
                owner: key(&account.owner)?,
                executable: false,
                rent_epoch: 0,
            },
        )
        .map_err(|e| format!("{}: setting {pubkey}: {e:?}", case.row))?;
    }
    let mut instructions = Vec::new();
    if let Some(bytes) = heap_frame {
        instructions.push(ComputeBudgetInstruction::request_heap_frame(bytes));
        instructions.push(ComputeBudgetInstruction::set_compute_unit_limit(
            MAX_COMPUTE_UNIT_LIMIT,
        ));
    }
    instructions.push(Instruction::new_with_bytes(
        program_id,
        &bytes(&case.instruction_data)?,
        metas,
    ));
    let tx = Transaction::new_signed_with_payer(
        &instructions,
        Some(&payer.pubkey()),
        &[payer],
        svm.latest_blockhash(),
    );
    let sent = svm.send_transaction(tx);
    svm.expire_blockhash();
    let meta = match (sent, &case.error) {
        // An error-path row: the program's error, and nothing written.
        (Err(failed), Some(want)) => {
            return match &failed.err {
                TransactionError::InstructionError(_, got) if &format!("{got:?}") == want => {
                    Ok(Replay {
                        transaction_cus: failed.meta.compute_units_consumed,
                        data_equal: true,
                    })
                }
                got => Err(format!("{got:?} instead of {want}")),
            };
        }
        (Ok(_), Some(want)) => return Err(format!("success instead of {want}")),
        (Err(failed), None) => {
            // The program's last log line names the runtime's error.
            let last = failed.meta.logs.last().cloned().unwrap_or_default();
            return Err(format!("{:?}: {last}", failed.err));
        }
        (Ok(meta), None) => meta,
    };
    let first = key(&case.accounts[0].pubkey)?;
    let after = svm.get_account(&first).map(|a| a.data).unwrap_or_default();
    let want = case.data_after.as_deref().map(bytes).transpose()?;
    Ok(Replay {
        transaction_cus: meta.compute_units_consumed,
        data_equal: want.as_deref() == Some(&after[..]),
    })
}

/// A LiteSVM like `LiteSVM::new()`, with `features`.
fn svm_with(features: FeatureSet) -> LiteSVM {
    LiteSVM::default()
        .with_feature_set(features)
        .with_builtins()
        .with_lamports(1_000_000_000_000_000)
        .with_sysvars()
        .with_feature_accounts()
        .with_default_programs()
        .with_sigverify(true)
        .with_blockhash_check(true)
}

/// One pass over every case in one feature set.
#[derive(Serialize)]
struct Pass {
    features: &'static str,
    /// What a transaction adds to the program's CUs: without a compute
    /// budget instruction, and with the `RequestHeapFrame` the message
    /// family's cases carry.
    overhead_plain: i64,
    overhead_heap_frame: i64,
    cases: usize,
    equal: usize,
    /// Rows that differ or fault, with what happened.
    different: Vec<(String, String)>,
}

fn pass(cases: &[Case], root: &std::path::Path, features: &'static str) -> Result<Pass, String> {
    let mut svm = svm_with(match features {
        "all" => FeatureSet::all_enabled(),
        _ => LiteSVM::mainnet_feature_set(),
    });
    let mut loaded = BTreeMap::new();
    for case in cases {
        if loaded.contains_key(&case.program_id) {
            continue;
        }
        let elf = fs::read(root.join(&case.so)).map_err(|e| format!("{}: {e}", case.so))?;
        svm.add_program(key(&case.program_id)?, &elf)
            .map_err(|e| format!("{}: loading {}: {e:?}", case.row, case.so))?;
        loaded.insert(case.program_id.clone(), case.so.clone());
    }
    let payer = Keypair::new();
    svm.airdrop(&payer.pubkey(), 1_000_000_000_000)
        .map_err(|e| format!("airdrop: {:?}", e.err))?;

    // The overhead, from the floor's `full`: as it is, and with a
    // `RequestHeapFrame` for the default frame (which changes nothing the
    // program sees).
    let floor = cases
        .iter()
        .find(|c| c.row == "noop::full")
        .ok_or("cases.json has no noop::full (the floor) to measure the overhead with")?;
    let plain = replay(&mut svm, &payer, floor, None)?.transaction_cus as i64;
    let framed = replay(&mut svm, &payer, floor, Some(DEFAULT_HEAP))?.transaction_cus as i64;
    let overhead_plain = plain - floor.cus as i64;
    let overhead_heap_frame = framed - floor.cus as i64;

    let mut equal = 0;
    let mut different = Vec::new();
    for case in cases {
        let (frame, overhead) = if case.heap_frame == DEFAULT_HEAP {
            (None, overhead_plain)
        } else {
            (Some(case.heap_frame), overhead_heap_frame)
        };
        match replay(&mut svm, &payer, case, frame) {
            Ok(r) if r.data_equal && r.transaction_cus as i64 - overhead == case.cus as i64 => {
                equal += 1
            }
            Ok(r) => different.push((
                case.row.clone(),
                format!(
                    "LiteSVM {} CUs (program {}), Mollusk {}; data {}",
                    r.transaction_cus,
                    r.transaction_cus as i64 - overhead,
                    case.cus,
                    if r.data_equal { "equal" } else { "differs" }
                ),
            )),
            Err(e) => different.push((case.row.clone(), e)),
        }
    }
    Ok(Pass {
        features,
        overhead_plain,
        overhead_heap_frame,
        cases: cases.len(),
        equal,
        different,
    })
}

fn markdown(version: &str, passes: &[Pass]) -> String {
    let mut out = format!(
        "# Replayed in LiteSVM {version}\n\n\
         Every case `make bench` measured, as a one-instruction transaction (the message \
         family's with a `RequestHeapFrame` and a `SetComputeUnitLimit` of 1,400,000 first, \
         since its largest rows need more than the default 200,000) with the same program \
         bytes and accounts. The program's CUs are the transaction's less what the transaction \
         adds, measured on the no-op program: the floor's `noop::full` as it is, and with the \
         two compute budget instructions (the default frame).\n"
    );
    for p in passes {
        out.push_str(&format!(
            "\n## Features: {}\n\n- {}/{} equal (CUs and account data)\n\
             - transaction overhead: {} CUs without a compute budget instruction, {} with the \
             two (the compute budget program's own cost)\n",
            if p.features == "all" {
                "all enabled (as Mollusk runs)"
            } else {
                "active on mainnet (LiteSVM's default)"
            },
            p.equal,
            p.cases,
            p.overhead_plain,
            p.overhead_heap_frame
        ));
        for (row, what) in &p.different {
            out.push_str(&format!("- `{row}`: {what}\n"));
        }
    }
    out
}

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(message) => {
            eprintln!("litesvm check: {message}");
            ExitCode::FAILURE
        }
    }
}

/// The rows that fault or differ with mainnet's features, as committed in
/// benches/mainnet.json: `make bench` marks them in every table.
#[derive(Serialize, Deserialize, PartialEq, Eq)]
struct MainnetRows {
    litesvm: String,
    /// Row name -> what the replay saw (the runtime's error).
    rows: BTreeMap<String, String>,
}

/// Compares the mainnet pass with benches/mainnet.json, or rewrites it
/// (`baseline`); a difference fails, naming the rows.
fn check_mainnet(
    root: &std::path::Path,
    pass: &Pass,
    version: &str,
    rewrite: bool,
) -> Result<bool, String> {
    let path = root.join("benches/mainnet.json");
    let now = MainnetRows {
        litesvm: version.into(),
        rows: pass.different.iter().cloned().collect(),
    };
    if rewrite {
        let text = serde_json::to_string_pretty(&now).expect("JSON") + "\n";
        fs::write(&path, text).map_err(|e| format!("writing benches/mainnet.json: {e}"))?;
        println!(
            "wrote benches/mainnet.json ({} rows); commit it, then run make bench to mark them",
            now.rows.len()
        );
        return Ok(true);
    }
    let committed: MainnetRows = fs::read_to_string(&path)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .ok_or("benches/mainnet.json is missing or unreadable; run `make litesvm-baseline`")?;
    if committed == now {
        return Ok(true);
    }
    let mut changes = Vec::new();
    for (row, what) in &now.rows {
        if committed.rows.get(row) != Some(what) {
            changes.push(format!("  now differs on mainnet: {row}: {what}"));
        }
    }
    for row in committed.rows.keys().filter(|r| !now.rows.contains_key(*r)) {
        changes.push(format!("  no longer differs on mainnet: {row}"));
    }
    if committed.litesvm != now.litesvm {
        changes.push(format!(
            "  LiteSVM {} -> {}",
            committed.litesvm, now.litesvm
        ));
    }
    eprintln!(
        "litesvm check: the mainnet replay differs from benches/mainnet.json (the rows every table marks):\n{}\nIf intended, run `make litesvm-baseline`, commit benches/mainnet.json, and run make bench.",
        changes.join("\n")
    );
    Ok(false)
}

fn run() -> Result<bool, String> {
    let rewrite = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("baseline") => true,
        Some(other) => {
            return Err(format!(
                "unknown mode `{other}`; use no argument or `baseline`"
            ));
        }
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = root.join("target/benches");
    let path = out.join("cases.json");
    let text = fs::read_to_string(&path)
        .map_err(|e| format!("{}: {e}; run `make bench` first", path.display()))?;
    let mut cases: Cases =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    // DEPLOY=<folder>: the same cases with another build of the programs
    // (`make toolchains`' target/toolchains/<name>/deploy); reported only.
    let other_build = std::env::var("DEPLOY")
        .ok()
        .filter(|d| d != "target/deploy");
    if let Some(deploy) = &other_build {
        for case in &mut cases.cases {
            case.so = case.so.replacen("target/deploy", deploy, 1);
        }
        // `make toolchains` builds the crates' programs, not the other
        // frameworks' ones: replay what that build has.
        let before = cases.cases.len();
        cases.cases.retain(|case| root.join(&case.so).is_file());
        if cases.cases.len() < before {
            println!(
                "({} cases skipped: their programs are not in {deploy})",
                before - cases.cases.len()
            );
        }
    }
    let version = env!("LITESVM_VERSION");
    let passes = [
        pass(&cases.cases, &root, "all")?,
        pass(&cases.cases, &root, "mainnet")?,
    ];
    let report = markdown(version, &passes);
    print!("{report}");
    if let Some(deploy) = other_build {
        println!("(programs from {deploy}; nothing written)");
        return Ok(passes[0].equal == passes[0].cases);
    }
    let write = |name: &str, text: String| {
        fs::write(out.join(name), text).map_err(|e| format!("writing target/benches/{name}: {e}"))
    };
    write("litesvm.md", report)?;
    write(
        "litesvm.json",
        serde_json::to_string_pretty(&serde_json::json!({ "litesvm": version, "passes": passes }))
            .expect("JSON")
            + "\n",
    )?;
    // The summary names the replay, replacing the line of an earlier one.
    let all = &passes[0];
    let line = format!(
        "Replayed in LiteSVM {version} (all features, as Mollusk runs): {}/{} equal; see litesvm.md.",
        all.equal, all.cases
    );
    if let Ok(summary) = fs::read_to_string(out.join("summary.md")) {
        let kept: Vec<&str> = summary
            .lines()
            .filter(|l| !l.starts_with("Replayed in LiteSVM"))
            .collect();
        write(
            "summary.md",
            format!("{}\n\n{line}\n", kept.join("\n").trim_end()),
        )?;
    }
    let mainnet_as_committed = check_mainnet(&root, &passes[1], version, rewrite)?;
    Ok(all.equal == all.cases && mainnet_as_committed)
}
