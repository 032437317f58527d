//! The families' replay: every case `make bench` measured
//! (target/benches/cases.json), in two passes, with the program's CUs taken
//! as the transaction's less what a transaction adds (measured on the
//! floor's `noop::full`), and the mainnet pass held to benches/mainnet.json.

use std::{collections::BTreeMap, fs, path::Path};

use litesvm::LiteSVM;
use serde::{Deserialize, Serialize};
use solana_keypair::Keypair;

use crate::replay::{Budget, Case, Cases, Features, replay, replay_json, svm_with};

/// The runtime's default heap frame: no `RequestHeapFrame` needed.
const DEFAULT_HEAP: u32 = 32 * 1024;

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

fn framed(heap_frame: u32) -> Budget {
    Budget {
        heap_frame: Some(heap_frame),
        max_limit: true,
    }
}

fn pass(cases: &[Case], root: &Path, features: Features) -> Result<Pass, String> {
    let (mut svm, payer) = svm_with(features, cases, root, false)?;
    // The overhead, from the floor's `full`: as it is, and with a
    // `RequestHeapFrame` for the default frame (which changes nothing the
    // program sees).
    let floor = cases
        .iter()
        .find(|c| c.row == "noop::full")
        .ok_or("cases.json has no noop::full (the floor) to measure the overhead with")?;
    let plain = replay(&mut svm, &payer, floor, Budget::default())?.transaction_cus as i64;
    let with_frame = replay(&mut svm, &payer, floor, framed(DEFAULT_HEAP))?.transaction_cus as i64;
    let overhead_plain = plain - floor.cus as i64;
    let overhead_heap_frame = with_frame - floor.cus as i64;

    let mut equal = 0;
    let mut different = Vec::new();
    for case in cases {
        let (budget, overhead) = if case.heap_frame == DEFAULT_HEAP {
            (Budget::default(), overhead_plain)
        } else {
            (framed(case.heap_frame), overhead_heap_frame)
        };
        match replay(&mut svm, &payer, case, budget) {
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
        features: features.name(),
        overhead_plain,
        overhead_heap_frame,
        cases: cases.len(),
        equal,
        different,
    })
}

fn markdown(version: &str, passes: &[(Features, Pass)]) -> String {
    let mut out = format!(
        "# Replayed in LiteSVM {version}\n\n\
         Every case `make bench` measured, as a one-instruction transaction (the message \
         family's with a `RequestHeapFrame` and a `SetComputeUnitLimit` of 1,400,000 first, \
         since its largest rows need more than the default 200,000) with the same program \
         bytes and accounts. The program's CUs are the transaction's less what the transaction \
         adds, measured on the no-op program: the floor's `noop::full` as it is, and with the \
         two compute budget instructions (the default frame).\n"
    );
    for (features, p) in passes {
        out.push_str(&format!(
            "\n## Features: {}\n\n- {}/{} equal (CUs, account data, and what an event call emitted)\n\
             - transaction overhead: {} CUs without a compute budget instruction, {} with the \
             two (the compute budget program's own cost)\n",
            features.title(),
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
fn check_mainnet(root: &Path, pass: &Pass, version: &str, rewrite: bool) -> Result<bool, String> {
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

/// Every case replayed once more with every feature, each program's in a
/// LiteSVM `set_up` makes with a folder of its own under `dir` (its
/// `.so`'s path from the repository, `/` as `_`, no `.so`); `what` names
/// the pass in errors. `dir` is emptied first. Returns how many cases ran.
fn per_program(
    cases: &[Case],
    dir: &Path,
    what: &str,
    set_up: impl Fn(&[Case], &Path) -> Result<(LiteSVM, Keypair), String>,
) -> Result<usize, String> {
    let _ = fs::remove_dir_all(dir);
    let mut by_program: BTreeMap<&str, Vec<Case>> = BTreeMap::new();
    for case in cases {
        by_program.entry(&case.so).or_default().push(case.clone());
    }
    for (so, cases) in by_program {
        let folder = dir.join(so.trim_end_matches(".so").replace('/', "_"));
        let (mut svm, payer) = set_up(&cases, &folder)?;
        for case in &cases {
            let budget = match case.heap_frame {
                DEFAULT_HEAP => Budget::default(),
                frame => framed(frame),
            };
            replay(&mut svm, &payer, case, budget)
                .map_err(|e| format!("{} {what}: {e}", case.row))?;
        }
    }
    Ok(cases.len())
}

/// [`per_program`] with LiteSVM's register tracing on (its
/// `register-tracing` feature, as a team's tests run with `SBF_TRACE_DIR`
/// set), for `make profile SO= TRACES=`'s known answer
/// (`benches/profile_so/tests/traces.rs`): a folder a program, since a
/// trace file is named by its registers' digest and two programs that
/// run alike would write the same name.
fn trace(cases: &[Case], root: &Path, dir: &Path) -> Result<usize, String> {
    per_program(cases, dir, "traced", |cases, traces| {
        fs::create_dir_all(traces).map_err(|e| format!("{}: {e}", traces.display()))?;
        // SAFETY: this binary runs one thread; LiteSVM reads the variable
        // while it is built (tracing on, and its callback's folder), and
        // it is removed before anything else reads the environment.
        unsafe { std::env::set_var("SBF_TRACE_DIR", traces) };
        let built = svm_with(Features::All, cases, root, true);
        // SAFETY: as above.
        unsafe { std::env::remove_var("SBF_TRACE_DIR") };
        built
    })
}

/// [`per_program`] with the recorder installed (`litesvm-recorder`, as a
/// team's tests run with `LITESVM_FIXTURES` set), for its known answer
/// (`benches/profile_so/tests/recorded.rs`); the recorder adds the
/// program id's folder.
fn record(cases: &[Case], root: &Path, dir: &Path) -> Result<usize, String> {
    per_program(cases, dir, "recorded", |cases, fixtures| {
        let (mut svm, payer) = svm_with(Features::All, cases, root, false)?;
        svm.set_invocation_inspect_callback(litesvm_recorder::Recorder::new(fixtures));
        Ok((svm, payer))
    })
}

/// Replays the families' cases; `rewrite` rewrites benches/mainnet.json.
/// `Ok(false)` when a case differs with every feature enabled, or the
/// mainnet pass differs from the committed file.
pub fn run(root: &Path, version: &str, rewrite: bool) -> Result<bool, String> {
    let out = root.join("target/benches");
    let mut cases = Cases::read(&out.join("cases.json"), "make bench")?;
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
    let passes = [
        (Features::All, pass(&cases.cases, root, Features::All)?),
        (
            Features::Mainnet,
            pass(&cases.cases, root, Features::Mainnet)?,
        ),
    ];
    let report = markdown(version, &passes);
    print!("{report}");
    let all = &passes[0].1;
    if let Some(deploy) = other_build {
        println!("(programs from {deploy}; nothing written)");
        return Ok(all.equal == all.cases);
    }
    let write = |name: &str, text: String| {
        fs::write(out.join(name), text).map_err(|e| format!("writing target/benches/{name}: {e}"))
    };
    write("litesvm.md", report)?;
    write("litesvm.json", replay_json(version, &passes))?;
    let traced = trace(&cases.cases, root, &out.join("litesvm-traces"))?;
    println!(
        "Traced in LiteSVM (register tracing, every feature): {traced} cases, into target/benches/litesvm-traces/"
    );
    let recorded = record(&cases.cases, root, &out.join("litesvm-fixtures"))?;
    println!(
        "Recorded in LiteSVM (litesvm-recorder, every feature): {recorded} cases, into target/benches/litesvm-fixtures/"
    );
    // The summary names the replay, replacing the line of an earlier one.
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
    let mainnet_as_committed = check_mainnet(root, &passes[1].1, version, rewrite)?;
    Ok(all.equal == all.cases && mainnet_as_committed)
}
