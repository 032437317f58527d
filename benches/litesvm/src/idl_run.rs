//! A `make idl` run's replay (`IDL_RUN=target/benches/idl/<program>`, or
//! the folder of runs): every case of its `cases.json` in two passes, the
//! program's CUs as the runtime logs them, written beside the run's own
//! report: `litesvm.md`, `litesvm.json`, a section of `summary.md`, and
//! `mainnet_ok` on each replayed record of `results.json`.

use std::{collections::BTreeSet, fs, path::Path};

use serde::Serialize;

use crate::replay::{Budget, Case, Cases, Features, replay, replay_json, svm_with};

/// The runtime's default heap frame: no `RequestHeapFrame` needed.
const DEFAULT_HEAP: u32 = 32 * 1024;
/// The heading of the replay's section in the run's `summary.md`.
const SECTION: &str = "## Replayed in LiteSVM";

/// One pass over a run's cases in one feature set.
#[derive(Serialize)]
struct Pass {
    features: &'static str,
    cases: usize,
    equal: usize,
    /// Rows that differ or fault, with what happened.
    different: Vec<(String, String)>,
}

fn pass(cases: &[Case], root: &Path, features: Features) -> Result<Pass, String> {
    let (mut svm, payer) = svm_with(features, cases, root, false)?;
    let mut equal = 0;
    let mut different = Vec::new();
    for case in cases {
        // The most compute a transaction may have, as Mollusk gives every
        // call; the logged CUs are the program's alone either way.
        let budget = Budget {
            heap_frame: (case.heap_frame != DEFAULT_HEAP).then_some(case.heap_frame),
            max_limit: true,
        };
        match replay(&mut svm, &payer, case, budget) {
            Ok(r) if r.data_equal && r.program_cus == Some(case.cus) => equal += 1,
            Ok(r) => different.push((
                case.row.clone(),
                format!(
                    "LiteSVM {} CUs, Mollusk {}; bytes {}",
                    r.program_cus
                        .map_or("no logged".to_string(), |cus| cus.to_string()),
                    case.cus,
                    if r.data_equal { "equal" } else { "differ" }
                ),
            )),
            Err(e) => different.push((case.row.clone(), e)),
        }
    }
    Ok(Pass {
        features: features.name(),
        cases: cases.len(),
        equal,
        different,
    })
}

fn markdown(version: &str, run: &str, passes: &[(Features, Pass)]) -> String {
    let mut out = format!(
        "{SECTION} {version}\n\n\
         Every case of `cases.json` (`make litesvm IDL_RUN={run}`), as a transaction with the \
         same program bytes and accounts, after a `SetComputeUnitLimit` of 1,400,000 (Mollusk's \
         budget). The program's CUs are the runtime's own log line \
         (`Program <id> consumed N of M compute units`); the bytes compared are account [0]'s \
         data and what an event call emitted.\n\n"
    );
    for (features, p) in passes {
        out.push_str(&format!(
            "- Features {}: {}/{} equal\n",
            features.title(),
            p.equal,
            p.cases
        ));
        for (row, what) in &p.different {
            out.push_str(&format!("  - `{row}`: {what}\n"));
        }
    }
    out
}

/// Sets `mainnet_ok` on each record of `results.json` whose row was
/// replayed: `false` where the mainnet pass differs or faults.
fn mark_results(dir: &Path, cases: &[Case], mainnet: &Pass) -> Result<(), String> {
    let path = dir.join("results.json");
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut records: Vec<serde_json::Value> =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let replayed: BTreeSet<&str> = cases.iter().map(|c| c.row.as_str()).collect();
    let faulted: BTreeSet<&str> = mainnet.different.iter().map(|(r, _)| r.as_str()).collect();
    for record in &mut records {
        let Some(row) = record["row"].as_str().map(String::from) else {
            continue;
        };
        if replayed.contains(row.as_str()) {
            record["mainnet_ok"] = (!faulted.contains(row.as_str())).into();
        }
    }
    let text = serde_json::to_string_pretty(&records).expect("JSON");
    replace(&path, text).map_err(|e| format!("writing {}: {e}", path.display()))
}

/// Writes `text` to `path` whole: into a file beside it, renamed over it,
/// so that what reads the run's files meanwhile (the page's test, beside
/// this replay in `make test`) finds the old file or the new one, never
/// half of one.
fn replace(path: &Path, text: String) -> std::io::Result<()> {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let partial = path.with_file_name(format!(".{name}.replay"));
    fs::write(&partial, text).and_then(|()| fs::rename(&partial, path))
}

/// Replays one run; `Ok(false)` when a case differs with every feature
/// enabled.
pub fn replay_run(root: &Path, dir: &Path, version: &str) -> Result<bool, String> {
    let name = dir.strip_prefix(root).unwrap_or(dir).display().to_string();
    let cases = Cases::read(&dir.join("cases.json"), "make idl IDL=<file>")?.cases;
    let passes = [
        (Features::All, pass(&cases, root, Features::All)?),
        (Features::Mainnet, pass(&cases, root, Features::Mainnet)?),
    ];
    let report = markdown(version, &name, &passes);
    let write = |file: &str, text: String| {
        replace(&dir.join(file), text).map_err(|e| format!("writing {name}/{file}: {e}"))
    };
    write("litesvm.md", report.clone())?;
    write("litesvm.json", replay_json(version, &passes))?;
    // The summary's section replaces an earlier replay's.
    if let Ok(summary) = fs::read_to_string(dir.join("summary.md")) {
        let kept = summary.split(SECTION).next().unwrap_or_default().trim_end();
        write("summary.md", format!("{kept}\n\n{report}"))?;
    }
    mark_results(dir, &cases, &passes[1].1)?;
    let (all, mainnet) = (&passes[0].1, &passes[1].1);
    println!(
        "{name}: {}/{} equal with every feature, {}/{} with mainnet's; see {name}/litesvm.md",
        all.equal, all.cases, mainnet.equal, mainnet.cases
    );
    for (row, what) in &all.different {
        eprintln!("  {row}: {what}");
    }
    Ok(all.equal == all.cases)
}
