//! The regression gate: every CU of a run against `benches/baseline.json`.
//! CUs are deterministic, so any difference is a change to explain.

use std::{collections::BTreeMap, path::Path};

use serde::{Deserialize, Serialize};

use crate::report::Run;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    /// What produced the numbers; a different toolchain gives other CUs.
    pub toolchain: String,
    /// Row (`<label>::<operation>`) -> CUs, the floor included as `noop::...`.
    pub compute_units: BTreeMap<String, u64>,
}

impl Baseline {
    pub fn of(run: &Run) -> Self {
        let compute_units = run
            .measurements
            .iter()
            .chain(&run.floor)
            .chain(&run.frameworks)
            .map(|m| (m.row(), m.cus))
            .collect();
        Self {
            toolchain: run.provenance.toolchain(),
            compute_units,
        }
    }

    pub fn read(path: &Path) -> Result<Self, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{} is not a baseline: {e}", path.display()))
    }

    pub fn write(&self, path: &Path) -> Result<(), String> {
        let text = serde_json::to_string_pretty(self).expect("a baseline serializes") + "\n";
        std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Every row whose CUs differ, or that only one side has.
    pub fn differences(&self, now: &Self) -> Vec<String> {
        let mut rows: Vec<&String> = self
            .compute_units
            .keys()
            .chain(now.compute_units.keys())
            .collect();
        rows.sort();
        rows.dedup();
        let mut differences: Vec<String> = rows
            .into_iter()
            .filter_map(
                |row| match (self.compute_units.get(row), now.compute_units.get(row)) {
                    (Some(old), Some(new)) if old != new => Some(format!("{row}: {old} -> {new}")),
                    (Some(old), None) => Some(format!("{row}: {old} -> missing from this run")),
                    (None, Some(new)) => Some(format!("{row}: not in the baseline, now {new}")),
                    _ => None,
                },
            )
            .collect();
        if !differences.is_empty() && self.toolchain != now.toolchain {
            differences.push(format!(
                "toolchain differs: baseline {}, this run {}",
                self.toolchain, now.toolchain
            ));
        }
        differences
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn baseline(rows: &[(&str, u64)]) -> Baseline {
        Baseline {
            toolchain: "t".into(),
            compute_units: rows.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }

    #[test]
    fn lists_changed_missing_and_new_rows() {
        let old = baseline(&[("a::full", 10), ("b::full", 20), ("c::full", 30)]);
        let new = baseline(&[("a::full", 10), ("b::full", 21), ("d::full", 40)]);
        assert_eq!(
            old.differences(&new),
            [
                "b::full: 20 -> 21",
                "c::full: 30 -> missing from this run",
                "d::full: not in the baseline, now 40"
            ]
        );
        assert!(old.differences(&old).is_empty());
    }
}
