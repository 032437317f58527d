//! Driving the page as a reader would (its selects, its sort) and reading
//! back what it shows (counts, rows, columns, cells).

use std::path::PathBuf;

use serde_json::Value;

use super::expected::FrameChange;
use crate::cdp::Page;

/// Where Debian's package puts the browser.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, or `None` (said in one line) where there is none and this
/// is not CI; in CI a missing browser fails.
pub(super) fn chromium() -> Option<PathBuf> {
    let path = PathBuf::from(CHROMIUM);
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true and no {CHROMIUM}: make test installs Debian's chromium with apt-get, which needs root"
    );
    eprintln!(
        "page test skipped: no {CHROMIUM}, and no root to install it (make test installs Debian's chromium where it can)"
    );
    None
}

/// Runs `script` (an expression) in the page and returns its value, which
/// the script gives as JSON text.
pub(super) fn eval(tab: &Page, script: &str) -> Value {
    let result = tab.evaluate(&format!("JSON.stringify({script})"));
    let text = result
        .as_str()
        .unwrap_or_else(|| panic!("{script}: no value"));
    serde_json::from_str(text).unwrap()
}

/// Sets one of a table's selects (`[data-filter=family]`, `[data-compare=a]`)
/// as a reader would, firing its `change`.
pub(super) fn choose(tab: &Page, table: &str, select: &str, value: &str) {
    let done = eval(
        tab,
        &format!(
            "(() => {{ const s = document.querySelector('{table} select[{select}]'); \
             if (!s || ![...s.options].some(o => o.value === {value:?})) return false; \
             s.value = {value:?}; s.dispatchEvent(new Event('change')); return true; }})()"
        ),
    );
    assert_eq!(done, true, "{table}: no option {value} in select[{select}]");
}

/// A script's `count(table)`: the table's `[shown, total]` from its
/// `.count`, or `null` where it has none.
pub(super) const COUNT: &str = "const count = t => { const c = document.querySelector(t + ' .count'); \
                     return c ? [+c.dataset.shown, +c.dataset.total] : null; };";

/// The table's shown and total counts, and its rows' names, in order.
pub(super) fn shown(tab: &Page, table: &str) -> (u64, u64, Vec<String>) {
    let value = eval(
        tab,
        &format!(
            "(() => {{ {COUNT} \
             return {{ count: count('{table}'), \
             rows: [...document.querySelectorAll('{table} .scroll > table > tbody > tr')].map(r => r.dataset.row) }}; }})()"
        ),
    );
    let rows = value["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().to_string())
        .collect();
    let count = |i: usize| {
        value["count"][i]
            .as_u64()
            .unwrap_or_else(|| panic!("{table}: no .count"))
    };
    (count(0), count(1), rows)
}

/// The text and link (if any) of the column `key` of the table's rows, in
/// order.
pub(super) fn texts(tab: &Page, table: &str, key: &str) -> Vec<(String, Option<String>)> {
    let value = eval(
        tab,
        &format!(
            "(() => {{ const i = [...document.querySelectorAll('{table} .scroll > table > thead > tr > th')].findIndex(h => h.dataset.key === '{key}'); \
             if (i < 0) return null; \
             return [...document.querySelectorAll('{table} .scroll > table > tbody > tr')].map(r => {{ const a = r.children[i].querySelector('a'); \
             return [r.children[i].textContent, a ? a.getAttribute('href') : null]; }}); }})()"
        ),
    );
    let rows = value
        .as_array()
        .unwrap_or_else(|| panic!("{table}: no column {key}"));
    rows.iter()
        .map(|r| {
            (
                r[0].as_str().unwrap().to_string(),
                r[1].as_str().map(String::from),
            )
        })
        .collect()
}

/// Each row's "which frames differ" cell: its summary, the frames its
/// table lists (frame, self CUs in each record, change) and its total.
pub(super) fn frame_differences(tab: &Page, table: &str) -> Vec<(String, Vec<FrameChange>, i64)> {
    let value = eval(
        tab,
        &format!(
            "(() => {{ const i = [...document.querySelectorAll('{table} .scroll > table > thead > tr > th')].findIndex(h => h.dataset.key === 'frames_differ'); \
             if (i < 0) return null; \
             return [...document.querySelectorAll('{table} .scroll > table > tbody > tr')].map(r => {{ const cell = r.children[i]; \
             const d = cell.querySelector('details'); if (!d) return [cell.textContent, [], 0]; \
             return [d.querySelector('summary').textContent, \
               [...d.querySelectorAll(':scope > table > tbody > tr')].map(t => [t.dataset.frame, ...[...t.children].slice(1).map(c => c.textContent)]), \
               +d.querySelector(':scope > table > tfoot > tr').dataset.total]; }}); }})()"
        ),
    );
    let number = |text: &str| -> i64 { text.replace([',', '+'], "").parse().unwrap() };
    value
        .as_array()
        .unwrap_or_else(|| panic!("{table}: no column frames_differ"))
        .iter()
        .map(|cell| {
            let frames = cell[1]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    let text = |i: usize| f[i].as_str().unwrap_or_else(|| panic!("{f}"));
                    (
                        text(0).to_string(),
                        number(text(1)),
                        number(text(2)),
                        number(text(3)),
                    )
                })
                .collect();
            (
                cell[0].as_str().unwrap().to_string(),
                frames,
                cell[2].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The values of the column `key` of the table's rows, in order.
pub(super) fn column(tab: &Page, table: &str, key: &str) -> Vec<f64> {
    let value = eval(
        tab,
        &format!(
            "(() => {{ const i = [...document.querySelectorAll('{table} .scroll > table > thead > tr > th')].findIndex(h => h.dataset.key === '{key}'); \
             return [...document.querySelectorAll('{table} .scroll > table > tbody > tr')].map(r => +r.children[i].dataset.value); }})()"
        ),
    );
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}
