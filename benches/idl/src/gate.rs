//! `make idl ... BASELINE=<results.json>`: a run held to an earlier run of
//! the same program, as `make bench-check` holds the project's rows to
//! `benches/baseline.json`. CUs are deterministic, so any moved CU or byte
//! is a change to explain: a program team gates its own accounts,
//! instructions and events in CI with it.

use std::{collections::BTreeMap, path::Path};

use serde_json::Value;

/// The fields compared on every row: the CUs, the account's (or the
/// instruction data's) bytes, and whether it ran.
const FIELDS: [&str; 3] = ["cus", "account_bytes", "outcome"];

/// The records of a run's `results.json`, by row.
pub fn read(path: &Path) -> Result<BTreeMap<String, Value>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("BASELINE={}: cannot read it: {e}", path.display()))?;
    let records: Vec<Value> = serde_json::from_str(&text).map_err(|e| {
        format!(
            "BASELINE={}: not a make idl run's results.json (a list of records): {e}",
            path.display()
        )
    })?;
    records
        .into_iter()
        .map(|r| match key(&r) {
            Some(key) => Ok((key, r)),
            None => Err(format!(
                "BASELINE={}: a record without its `row` (or its site, name, format and operation)",
                path.display()
            )),
        })
        .collect()
}

/// A record's key: its `row`, or for an item not measured (which has no
/// row) `site/name/format::operation`.
fn key(record: &Value) -> Option<String> {
    if let Some(row) = record["row"].as_str() {
        return Some(row.to_string());
    }
    let part = |field: &str| record[field].as_str();
    Some(format!(
        "{}/{}/{}::{} (not measured)",
        part("site")?,
        part("name")?,
        part("format")?,
        part("operation")?
    ))
}

/// Every row whose CUs, bytes or outcome moved, or that only one run has
/// (`row: cus 120 -> 125`), in row order.
pub fn moved(earlier: &BTreeMap<String, Value>, now: &BTreeMap<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    for (row, was) in earlier {
        let Some(is) = now.get(row) else {
            out.push(format!("{row}: missing from this run"));
            continue;
        };
        let changes: Vec<String> = FIELDS
            .iter()
            .filter(|field| was[**field] != is[**field])
            .map(|field| format!("{field} {} -> {}", was[*field], is[*field]))
            .collect();
        if !changes.is_empty() {
            out.push(format!("{row}: {}", changes.join(", ")));
        }
    }
    for (row, is) in now {
        if !earlier.contains_key(row) {
            out.push(format!("{row}: not in the baseline, now {} CUs", is["cus"]));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn run(rows: &[(&str, u64, u64)]) -> BTreeMap<String, Value> {
        rows.iter()
            .map(|(row, cus, bytes)| {
                let record =
                    json!({"row": row, "cus": cus, "account_bytes": bytes, "outcome": "ran"});
                (row.to_string(), record)
            })
            .collect()
    }

    #[test]
    fn names_moved_missing_and_new_rows() {
        let earlier = run(&[("a", 10, 8), ("b", 20, 8), ("c", 30, 8)]);
        let now = run(&[("a", 10, 8), ("b", 21, 9), ("d", 40, 8)]);
        assert_eq!(
            moved(&earlier, &now),
            [
                "b: cus 20 -> 21, account_bytes 8 -> 9",
                "c: missing from this run",
                "d: not in the baseline, now 40 CUs"
            ]
        );
        assert!(moved(&earlier, &earlier).is_empty());
    }
}
