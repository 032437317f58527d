//! Where every compute unit of a call goes: its trace and its syscalls'
//! exact charges ([`record`], [`meter`]) attributed to stacks of frames
//! ([`attribute`]) that sum to its CUs.

pub mod attribute;
pub mod meter;
pub mod output;
pub mod profiler;
pub mod record;
pub mod symbols;

pub use attribute::{Named, Profile, Symbols, attribute};
pub use profiler::Profiler;
pub use record::{Recorded, Recorder, VmRun};

use crate::Workspace;

/// Writes every row's files under `target/benches/profile/` and adds each
/// record of `target/benches/results.json` its `profile` (the folded
/// file, relative to `target/benches/`); returns what was written.
pub fn write(workspace: &Workspace, profiler: &Profiler) -> Result<String, String> {
    let benches = workspace.benches_dir();
    let dir = benches.join("profile");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("clearing {}: {e}", dir.display()))?;
    }
    output::write(&dir, &profiler.rows)?;
    let results_path = benches.join("results.json");
    let text = std::fs::read_to_string(&results_path)
        .map_err(|e| format!("reading {}: {e}", results_path.display()))?;
    let mut results: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", results_path.display()))?;
    let by_row: std::collections::HashMap<&str, &Profile> = profiler
        .rows
        .iter()
        .map(|(row, p)| (row.as_str(), p))
        .collect();
    let mut annotated = 0;
    for record in records_mut(&mut results) {
        let Some(row) = record.get("row").and_then(|r| r.as_str()).map(String::from) else {
            continue;
        };
        if by_row.contains_key(row.as_str()) {
            record["profile"] = format!("profile/{}.folded", output::stem(&row)).into();
            annotated += 1;
        }
    }
    if annotated != profiler.rows.len() {
        return Err(format!(
            "{} rows profiled, {annotated} of them found in {} (by `row`): run make profile again after make all",
            profiler.rows.len(),
            results_path.display()
        ));
    }
    std::fs::write(
        &results_path,
        serde_json::to_string_pretty(&results).expect("JSON") + "\n",
    )
    .map_err(|e| format!("writing {}: {e}", results_path.display()))?;
    Ok(format!(
        "make profile: {} rows profiled, each summing exactly to its CUs, into {} (per row: .folded, .svg, .md); results.json's records name their profile",
        profiler.rows.len(),
        dir.display()
    ))
}

/// Every record object in results.json, whatever array holds it.
fn records_mut(value: &mut serde_json::Value) -> Vec<&mut serde_json::Value> {
    match value {
        serde_json::Value::Object(map) if map.contains_key("row") && map.contains_key("cus") => {
            vec![value]
        }
        serde_json::Value::Object(map) => map.values_mut().flat_map(records_mut).collect(),
        serde_json::Value::Array(items) => items.iter_mut().flat_map(records_mut).collect(),
        _ => Vec::new(),
    }
}
