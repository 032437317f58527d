//! What the page should show, from the files the run wrote
//! (`results.json`, each row's folded stacks, each `make idl` run's
//! records), written the way the page writes it.

use std::{collections::BTreeMap, fs, path::Path};

use benches::{numbers::thousands, profile::categories::function_name};
use serde_json::Value;

pub(super) fn records(path: &Path, key: Option<&str>) -> Vec<Value> {
    let json: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let list = match key {
        Some(key) => &json[key],
        None => &json,
    };
    list.as_array().unwrap().clone()
}

/// Every `make idl` run under `dir`: its folder's name, its records but
/// the moves table's, and the moves table's (operation `move`).
pub(super) fn idl_runs(dir: &Path) -> Vec<(String, usize, usize)> {
    let mut runs: Vec<(String, usize, usize)> = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|entry| entry.path().join("results.json").is_file())
        .map(|entry| {
            let name = entry.file_name().to_string_lossy().into_owned();
            let all = records(&entry.path().join("results.json"), None);
            let moves = all.iter().filter(|r| r["operation"] == "move").count();
            (name, all.len() - moves, moves)
        })
        .collect();
    runs.sort();
    runs
}

/// `1,719` or `-2`, as the page writes a number.
pub(super) fn grouped(value: i64) -> String {
    let digits = thousands(value.unsigned_abs());
    if value < 0 {
        format!("-{digits}")
    } else {
        digits
    }
}

/// A record's categories as the page writes them, dearest first.
pub(super) fn category_text(categories: &Value) -> String {
    let mut list: Vec<(&String, i64)> = categories
        .as_object()
        .expect("a record's categories (run make profile)")
        .iter()
        .map(|(k, v)| (k, v.as_i64().unwrap()))
        .collect();
    list.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    list.iter()
        .map(|(name, cus)| format!("{name} {}", grouped(*cus)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// What `a` spends per category beyond `b`, as the page writes it.
pub(super) fn category_difference(a: &Value, b: &Value) -> String {
    let cus = |side: &Value| -> BTreeMap<String, i64> {
        side.as_object()
            .unwrap()
            .iter()
            .map(|(name, cus)| (name.clone(), cus.as_i64().unwrap()))
            .collect()
    };
    let moved = changes(&cus(a), &cus(b));
    if moved.is_empty() {
        return "same".into();
    }
    moved
        .iter()
        .map(|(name, _, _, change)| format!("{name} {}", signed_text(*change)))
        .collect::<Vec<_>>()
        .join(" · ")
}

/// `+3`, `-2` or `0`, as the page writes a change.
pub(super) fn signed_text(value: i64) -> String {
    format!("{}{}", if value > 0 { "+" } else { "" }, grouped(value))
}

/// A frame's self CUs in each of two records, and the change.
pub(super) type FrameChange = (String, i64, i64, i64);

/// Each frame's self CUs from a record's folded stacks (`profile`, beside
/// the page), keyed as a comparison keys them: a line's CUs belong to its
/// last frame under its caller (`caller → frame`, generics dropped).
pub(super) fn self_cus(dir: &Path, record: &Value) -> BTreeMap<String, i64> {
    let path = dir.join(record["profile"].as_str().expect("a profiled record"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut frames = BTreeMap::new();
    for line in text.lines() {
        let (stack, cus) = line.rsplit_once(' ').unwrap();
        let key = match stack.rsplit(';').collect::<Vec<_>>()[..] {
            [leaf] => function_name(leaf).to_string(),
            [leaf, caller, ..] => format!("{} → {}", function_name(caller), function_name(leaf)),
            [] => String::new(),
        };
        *frames.entry(key).or_insert(0) += cus.parse::<i64>().unwrap();
    }
    frames
}

/// The frames whose self CUs differ between `a` and `b`, largest change
/// first, from their folded stacks; a name with `;` is folded as `,`.
pub(super) fn frame_difference(dir: &Path, a: &Value, b: &Value) -> Vec<FrameChange> {
    changes(&self_cus(dir, a), &self_cus(dir, b))
}

/// Each name whose CUs differ between two maps, with both and the change,
/// largest change first (as the page orders them).
pub(super) fn changes(a: &BTreeMap<String, i64>, b: &BTreeMap<String, i64>) -> Vec<FrameChange> {
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    let cus = |side: &BTreeMap<String, i64>, name: &str| side.get(name).copied().unwrap_or(0);
    let mut moved: Vec<FrameChange> = names
        .into_iter()
        .map(|name| (name.clone(), cus(a, name), cus(b, name)))
        .map(|(name, a, b)| (name, a, b, a - b))
        .filter(|f| f.3 != 0)
        .collect();
    moved.sort_by(largest_change_first);
    moved
}

pub(super) fn largest_change_first(x: &FrameChange, y: &FrameChange) -> std::cmp::Ordering {
    y.3.abs().cmp(&x.3.abs()).then(x.0.cmp(&y.0))
}
