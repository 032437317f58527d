//! With `PROFILE=1`, where each move's CUs differ from today's path, by
//! category: today's `full` (an account's) or call (an instruction's or
//! event's) split into its categories, then each measured alternative's
//! change in every category that moves. The changes sum to the move's
//! change, as the categories sum to a row's CUs.

use std::{collections::BTreeMap, fmt::Write as _};

use benches::profile::categories::{self, Category};

use super::moves;
use crate::{
    measure::{Measured, Row},
    model::{AT_CAPACITY, Program, Site},
    profile::Profiles,
    render::RowFormat,
};

/// The section of `summary.md` (empty where the run has no moves).
/// `accounts`: the account types' moves ([`moves::of`]).
pub fn section(
    program: &Program,
    (rows, accounts): (&[Row], &[moves::Moves]),
    profiles: &Profiles,
) -> String {
    let mut out = String::new();
    let sites = moves::of_sites(program, rows);
    if accounts.is_empty() && sites.is_empty() {
        return out;
    }
    out.push_str(
        "\n## Where each move's CUs differ, by category\n\nToday's path, its CUs by category (`make idl PROFILE=1`: every row profiled, `profile/summary.md`), then each measured move's change in every category that moves (they sum to the move's change; a negative one is a saving).\n",
    );
    let by_category = |key: Option<String>| {
        key.and_then(|key| profiles.of(&key))
            .map(categories::of_profile)
    };
    for m in accounts {
        let moved = format!("{}{AT_CAPACITY}", m.account);
        let row = |p: &moves::Path| {
            let name = if p.at_capacity { &moved } else { &m.account };
            ran(rows, Site::Account, name, p.format, Some(m.instance))
        };
        let today = m
            .paths
            .iter()
            .find(|p| p.format == m.today && !p.at_capacity)
            .and_then(row);
        table(
            &mut out,
            &format!("{} (`full`, the `{}` instance)", m.account, m.instance),
            (m.today.name().to_string(), by_category(today)),
            m.paths.iter().map(|p| (p.label(), by_category(row(p)))),
        );
    }
    for m in &sites {
        let row = |format| ran(rows, m.site, &m.name, format, None);
        table(
            &mut out,
            &format!("{} `{}`", m.site.name(), m.name),
            (m.today.name().to_string(), by_category(row(m.today))),
            m.paths
                .iter()
                .map(|&(f, ..)| (f.name().to_string(), by_category(row(f)))),
        );
    }
    out
}

type Split = Option<BTreeMap<Category, u64>>;

/// One table: today's split in its title line, a line per other path.
fn table(
    out: &mut String,
    title: &str,
    (today, today_split): (String, Split),
    paths: impl Iterator<Item = (String, Split)>,
) {
    let Some(today_split) = today_split else {
        return;
    };
    let total: u64 = today_split.values().sum();
    let _ = writeln!(
        out,
        "\n### {title}\n\nToday, `{today}`: {total} CUs ({}).\n\n| path | CUs | change | by category |\n|---|---:|---:|---|",
        listed(&signed(&today_split), |cus| cus.to_string())
    );
    for (label, split) in paths {
        let Some(split) = split.filter(|_| label != today) else {
            continue;
        };
        let cus: u64 = split.values().sum();
        let mut changes: BTreeMap<Category, i64> = BTreeMap::new();
        for category in Category::ALL {
            let change = *split.get(&category).unwrap_or(&0) as i64
                - *today_split.get(&category).unwrap_or(&0) as i64;
            if change != 0 {
                changes.insert(category, change);
            }
        }
        let _ = writeln!(
            out,
            "| `{label}` | {cus} | {:+} | {} |",
            cus as i64 - total as i64,
            listed(&changes, |change| format!("{change:+}"))
        );
    }
}

fn signed(split: &BTreeMap<Category, u64>) -> BTreeMap<Category, i64> {
    split.iter().map(|(&c, &v)| (c, v as i64)).collect()
}

/// `decode 120 · checks 40`: the categories, largest first.
fn listed(split: &BTreeMap<Category, i64>, show: impl Fn(i64) -> String) -> String {
    let mut parts: Vec<(Category, i64)> = split.iter().map(|(&c, &v)| (c, v)).collect();
    parts.sort_by_key(|&(category, value)| (std::cmp::Reverse(value.abs()), category));
    let parts: Vec<String> = parts
        .into_iter()
        .map(|(category, value)| format!("{} {}", category.name(), show(value)))
        .collect();
    parts.join(" · ")
}

/// The key of the row of `site` `name` in `format` that ran (of
/// `instance`'s `full`, for an account).
fn ran(
    rows: &[Row],
    site: Site,
    name: &str,
    format: RowFormat,
    instance: Option<&str>,
) -> Option<String> {
    rows.iter()
        .filter(|r| r.site == site && r.name == name && r.format == format)
        .filter(|r| instance.is_none_or(|i| r.instance == i && r.operation == "full"))
        .find(|r| matches!(r.outcome, Measured::Ran { .. }))
        .map(Row::key)
}
