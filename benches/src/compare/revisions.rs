//! `make bench-diff REV=<git revision>`: the benchmark's rows on this
//! tree's programs and on another revision's (built in a worktree by
//! `benches/bench-diff.sh`), both run with this tree's cases and
//! profiled (by the bench binary, `bench::profile_rows`); every row whose
//! CUs differ, with its change by category and by inlined frame (each
//! summing to it), into `target/benches/bench-diff/`.

use std::{collections::BTreeMap, fmt::Write as _, path::Path};

use serde::Serialize;

use super::{CostChange, CostChangeRecord, frames_match, frames_table, percent, signed};
use crate::profile::{Profiler, profiler::Naming};

/// One row whose CUs differ.
#[derive(Clone, Debug)]
pub struct RowChange {
    pub row: String,
    /// Its frames empty where either revision's program is named by
    /// function only.
    pub cost: CostChange,
    /// Why there are no frames, where there are none.
    pub no_frames: Option<String>,
}

/// The two revisions' rows compared.
pub struct Comparison {
    /// The other revision, as given.
    pub rev: String,
    pub changed: Vec<RowChange>,
    /// Rows measured the same at both.
    pub unchanged: usize,
    /// Rows only this tree has, and only the other revision's programs.
    pub only_here: Vec<String>,
    pub only_there: Vec<String>,
}

/// Every row of `new` (this tree's programs, profiled) against `base`'s
/// (the other revision's, profiled with this tree's cases), `rev` naming
/// the other revision.
pub fn compare(new: &Profiler, base: &Profiler, rev: &str) -> Comparison {
    let (new_namings, base_namings) = (new.namings(), base.namings());
    let base_rows: BTreeMap<&str, &crate::profile::ProfiledRow> =
        base.rows.iter().map(|r| (r.row.as_str(), r)).collect();
    let mut comparison = Comparison {
        rev: rev.to_string(),
        changed: Vec::new(),
        unchanged: 0,
        only_here: Vec::new(),
        only_there: base
            .rows
            .iter()
            .filter(|b| !new.rows.iter().any(|n| n.row == b.row))
            .map(|b| b.row.clone())
            .collect(),
    };
    for row in &new.rows {
        let Some(old) = base_rows.get(row.row.as_str()) else {
            comparison.only_here.push(row.row.clone());
            continue;
        };
        let (cus, base_cus) = (row.profile.total(), old.profile.total());
        if cus == base_cus {
            comparison.unchanged += 1;
            continue;
        }
        // The row's program's label (`token/exact/borsh::read_owner`).
        let label = row.row.split("::").next().unwrap_or(&row.row);
        // Frames matched by frames_match's rule; where they are
        // not, why, in this comparison's words.
        let by_frame = match (new_namings.get(label), base_namings.get(label)) {
            (Some(new), Some(base)) if frames_match(new.named_by(), base.named_by()) => Ok(()),
            (Some(Naming::Functions(why)), _) => {
                Err(format!("this tree's program by function: {why}"))
            }
            (_, Some(Naming::Functions(why))) => Err(format!("REV's program by function: {why}")),
            _ => Err("its program was not profiled".to_string()),
        };
        comparison.changed.push(RowChange {
            row: row.row.clone(),
            cost: CostChange::between(
                &row.profile,
                &old.profile,
                by_frame.is_ok(),
                by_frame.is_ok(),
            ),
            no_frames: by_frame.err(),
        });
    }
    comparison
        .changed
        .sort_by_key(|r| (std::cmp::Reverse(r.cost.change().abs()), r.row.clone()));
    comparison
}

/// `summary.md`.
pub fn markdown(c: &Comparison) -> String {
    let mut out = format!(
        "# The benchmark's rows: this tree against REV={}\n\n{} rows differ in CUs, {} are the same; both measured with this tree's cases and profiled by inlined frame (each revision's `.so.debug` files).\n",
        c.rev,
        c.changed.len(),
        c.unchanged
    );
    if !c.only_here.is_empty() || !c.only_there.is_empty() {
        let _ = writeln!(
            out,
            "\nOnly in this tree: {}. Only at REV: {}.",
            list(&c.only_here),
            list(&c.only_there)
        );
    }
    if c.changed.is_empty() {
        return out;
    }
    out.push_str("\n## The change, per row\n\n");
    for r in &c.changed {
        let _ = writeln!(out, "- {}", r.cost.headline(&r.row));
    }
    out.push_str(
        "\n| row | REV's CUs | this tree's CUs | change | % |\n|---|---:|---:|---:|---:|\n",
    );
    for r in &c.changed {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} |",
            r.row,
            r.cost.base_cus,
            r.cost.cus,
            signed(r.cost.change()),
            percent(r.cost.change(), r.cost.base_cus)
        );
    }
    out.push_str("\n## Frames whose self CUs changed most\n\nEach frame with its caller, its self CUs at REV and here; they sum to the row's change (the rest as one line).\n");
    for r in &c.changed {
        let _ = write!(
            out,
            "\n### `{}`: {} CUs\n\n",
            r.row,
            signed(r.cost.change())
        );
        if let Some(why) = &r.no_frames {
            let _ = writeln!(out, "No frames: {why}.");
            continue;
        }
        out.push_str(&frames_table(&r.cost.frames_change, ("REV", "here")));
    }
    out
}

fn list(rows: &[String]) -> String {
    match rows.is_empty() {
        true => "none".into(),
        false => rows
            .iter()
            .map(|r| format!("`{r}`"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

#[derive(Serialize)]
struct Record<'a> {
    row: &'a str,
    #[serde(flatten)]
    cost: CostChangeRecord<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    no_frames: Option<&'a str>,
}

/// `results.json`.
pub fn json(c: &Comparison) -> String {
    let records: Vec<Record> = c
        .changed
        .iter()
        .map(|row| Record {
            row: &row.row,
            cost: row.cost.record(),
            no_frames: row.no_frames.as_deref(),
        })
        .collect();
    let value = serde_json::json!({
        "rev": c.rev,
        "unchanged": c.unchanged,
        "only_here": c.only_here,
        "only_there": c.only_there,
        "records": records,
    });
    serde_json::to_string_pretty(&value).expect("the results serialize") + "\n"
}

/// Writes `summary.md` and `results.json` into `dir`.
pub fn write(dir: &Path, c: &Comparison) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("creating {}: {e}", dir.display()))?;
    for (file, text) in [("summary.md", markdown(c)), ("results.json", json(c))] {
        crate::files::write_whole(&dir.join(file), &text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::FrameChange;

    /// A row that moved: its line, its table row and its frames, summing
    /// to its change; the rows only one revision has, named.
    #[test]
    fn a_row_that_moved_is_written_with_its_frames() {
        let frames = vec![
            FrameChange {
                category: "checks".into(),
                frame: "try_accounts → insert".into(),
                base: 0,
                new: 276,
            },
            FrameChange {
                category: "decode".into(),
                frame: "deserialize → read".into(),
                base: 10,
                new: 46,
            },
        ];
        let comparison = Comparison {
            rev: "HEAD~1".into(),
            changed: vec![RowChange {
                row: "framework/token/account::update_amount".into(),
                cost: CostChange {
                    base_cus: 1424,
                    cus: 1736,
                    categories_change: BTreeMap::from([
                        ("checks".into(), 276),
                        ("decode".into(), 36),
                    ]),
                    frames_change: frames,
                },
                no_frames: None,
            }],
            unchanged: 679,
            only_here: vec!["token/exact/new::read_owner".into()],
            only_there: Vec::new(),
        };
        let summary = markdown(&comparison);
        assert!(
            summary.contains("1 rows differ in CUs, 679 are the same"),
            "{summary}"
        );
        assert!(
            summary.contains("- `framework/token/account::update_amount`: +312 CUs (+21.9%): checks +276 (`try_accounts → insert` +276), decode +36 (`deserialize → read` +36)\n"),
            "{summary}"
        );
        assert!(
            summary.contains(
                "| `framework/token/account::update_amount` | 1424 | 1736 | +312 | +21.9% |"
            ),
            "{summary}"
        );
        assert!(
            summary
                .contains("Only in this tree: `token/exact/new::read_owner`. Only at REV: none."),
            "{summary}"
        );
        let results: serde_json::Value = serde_json::from_str(&json(&comparison)).unwrap();
        let record = &results["records"][0];
        assert_eq!(record["change"], 312);
        let frames: i64 = record["frames_change"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["change"].as_i64().unwrap())
            .sum();
        assert_eq!(frames, 312);
        assert_eq!(record["categories_change"]["checks"], 276);
    }
}
