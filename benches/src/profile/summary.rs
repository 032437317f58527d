//! The run's profile files: every row's (`output`), `summary.md` (per
//! family, each row's CUs by category, and how each program was named),
//! and each record of `results.json` given its `profile`, `categories` and
//! `frames`.

use std::{
    collections::{BTreeMap, HashMap},
    fmt::Write as _,
};

use super::{
    categories::{self, Category},
    frames, output,
    profiler::{Naming, ProfiledRow, Profiler},
};
use crate::Workspace;

/// Writes everything under `target/benches/profile/` and annotates
/// `target/benches/results.json`; returns the line that says so.
pub fn write(workspace: &Workspace, profiler: &Profiler) -> Result<String, String> {
    let benches = workspace.benches_dir();
    let dir = benches.join("profile");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| format!("clearing {}: {e}", dir.display()))?;
    }
    output::write(&dir, &profiler.rows)?;
    let summary = markdown(INTRO, &profiler.rows, &profiler.namings());
    std::fs::write(dir.join("summary.md"), &summary)
        .map_err(|e| format!("writing {}: {e}", dir.join("summary.md").display()))?;
    annotate(&benches.join("results.json"), &profiler.rows)?;
    // The page, from the annotated records: each with its categories and
    // flamegraph.
    crate::report::page::write(&benches)?;
    let inlined = profiler
        .namings()
        .values()
        .filter(|n| matches!(n, Naming::Inlined { .. }))
        .count();
    Ok(format!(
        "make profile: {} rows profiled, each summing exactly to its CUs ({} of {} programs by inlined frame); per row a .folded, .svg and .md under {}; the categories: {}; on the page (report.html), each record's categories and flamegraph",
        profiler.rows.len(),
        inlined,
        profiler.namings().len(),
        dir.display(),
        dir.join("summary.md").display()
    ))
}

/// Adds each profiled record its `profile` (the folded file, relative to
/// `target/benches/`), `categories` and `frames` (each frame's self CUs,
/// where it has any: they sum to the record's CUs, as its categories do,
/// so two records' frames say exactly which frames make their difference);
/// every row must find its record.
pub fn annotate(path: &std::path::Path, rows: &[ProfiledRow]) -> Result<(), String> {
    let text =
        std::fs::read_to_string(path).map_err(|e| format!("reading {}: {e}", path.display()))?;
    let mut results: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let by_row: HashMap<&str, &ProfiledRow> = rows.iter().map(|r| (r.row.as_str(), r)).collect();
    let mut annotated = 0;
    for record in records_mut(&mut results) {
        let Some(row) = record.get("row").and_then(|r| r.as_str()).map(String::from) else {
            continue;
        };
        if let Some(profiled) = by_row.get(row.as_str()) {
            record["profile"] = format!("profile/{}.folded", output::row_stem(&row)).into();
            record["categories"] =
                serde_json::to_value(categories::of_profile(&profiled.profile)).expect("JSON");
            record["frames"] =
                serde_json::to_value(frames::self_cus_by_frame(&profiled.profile)).expect("JSON");
            annotated += 1;
        }
    }
    if annotated != rows.len() {
        return Err(format!(
            "{} rows profiled, {annotated} of them found in {} (by `row`)",
            rows.len(),
            path.display()
        ));
    }
    std::fs::write(
        path,
        serde_json::to_string_pretty(&results).expect("JSON") + "\n",
    )
    .map_err(|e| format!("writing {}: {e}", path.display()))
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

/// The heading of `summary.md`'s table of how each program's code is
/// named.
const NAMINGS: &str = "## How each program's code is named";

/// How each program's code is named, by its label, as [`markdown`] wrote
/// it into a `summary.md`; `None` where the text has no such table.
pub fn namings_of(summary: &str) -> Option<BTreeMap<&str, &str>> {
    let table = summary.split(NAMINGS).nth(1)?;
    Some(
        table
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|line| line.split_once("` | "))
            .map(|(label, how)| (label, how.trim_end_matches(" |")))
            .collect(),
    )
}

/// `make profile`'s `summary.md`'s opening.
const INTRO: &str = "# Where the CUs go\n\nEach row of `make bench`, its CUs by category (`make profile`; the rules: `benches/src/profile/categories.rs`). Every row's categories sum to its CUs; its flamegraph, folded stacks and frames table are beside this file, under the row's name.\n";

/// A profile's `summary.md`, after `intro`: per family and framework,
/// each row's CUs by category; then how each program's code was named.
pub fn markdown(intro: &str, rows: &[ProfiledRow], namings: &BTreeMap<String, Naming>) -> String {
    let mut out = String::from(intro);
    let mut groups: BTreeMap<(&str, &str), Vec<&ProfiledRow>> = BTreeMap::new();
    for row in rows {
        groups
            .entry((row.family, row.framework))
            .or_default()
            .push(row);
    }
    for ((family, framework), rows) in groups {
        let totals: Vec<BTreeMap<Category, u64>> = rows
            .iter()
            .map(|r| categories::of_profile(&r.profile))
            .collect();
        let used: Vec<Category> = Category::ALL
            .into_iter()
            .filter(|c| totals.iter().any(|t| t.contains_key(c)))
            .collect();
        writeln!(out, "\n## {family}, {framework}\n").expect("String");
        let header: Vec<&str> = used.iter().map(|c| c.name()).collect();
        writeln!(out, "| row | CUs | {} |", header.join(" | ")).expect("String");
        writeln!(out, "|---|---:|{}", "---:|".repeat(used.len())).expect("String");
        for (row, total) in rows.iter().zip(&totals) {
            let cells: Vec<String> = used
                .iter()
                .map(|c| total.get(c).map_or(String::new(), |v| v.to_string()))
                .collect();
            writeln!(
                out,
                "| `{}` | {} | {} |",
                row.row,
                row.profile.total(),
                cells.join(" | ")
            )
            .expect("String");
        }
    }
    write!(out, "\n{NAMINGS}\n\n").expect("String");
    out.push_str("By inlined frame where its `.so.debug` (the program as linked with line tables, which `make all` and `make idl` keep beside the measured `.so`) has the measured program's loadable bytes and its functions have a place in its DWARF (code there with line rows and no subprogram is `code at <file>:<line>`; a function with no place is named by address; both counted); by function otherwise, for the reason given.\n\n| program | named by |\n|---|---|\n");
    for (label, naming) in namings {
        let how = match naming {
            Naming::Inlined {
                unmatched,
                functions,
                by_line,
            } => {
                let mut how = String::from("inlined frame");
                if *unmatched > 0 {
                    write!(
                        how,
                        "; {unmatched} of its {functions} functions by address (no place in its DWARF)"
                    )
                    .expect("String");
                }
                if *by_line > 0 {
                    write!(
                        how,
                        "; {by_line} stretches of code with no subprogram by their line (`code at`)"
                    )
                    .expect("String");
                }
                how
            }
            Naming::Functions(reason) => format!("function: {reason}"),
        };
        writeln!(out, "| `{label}` | {how} |").expect("String");
    }
    out
}
