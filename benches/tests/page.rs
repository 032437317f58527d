//! `report.html` in a real browser: headless Chromium (Debian's, which
//! `make test` installs where it can, driven over the DevTools protocol
//! by `cdp`) opens the page from disk, as a reader would, and the test
//! works its table through the page's own controls. It runs last in
//! `make test` (`-- --ignored`), once `make bench` and every `make idl`
//! run the tests made have written what the page shows.

use std::{
    fs,
    path::{Path, PathBuf},
};

use benches::{Workspace, numbers::thousands, report::page};
use serde_json::{Value, json};

use crate::cdp::Page;

/// Where Debian's package puts the browser.
const CHROMIUM: &str = "/usr/bin/chromium";

/// The browser, or `None` (said in one line) where there is none and this
/// is not CI; in CI a missing browser fails.
fn chromium() -> Option<PathBuf> {
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
fn eval(tab: &Page, script: &str) -> Value {
    let result = tab.evaluate(&format!("JSON.stringify({script})"));
    let text = result
        .as_str()
        .unwrap_or_else(|| panic!("{script}: no value"));
    serde_json::from_str(text).unwrap()
}

/// Sets one of a table's selects (`[data-filter=family]`, `[data-compare=a]`)
/// as a reader would, firing its `change`.
fn choose(tab: &Page, table: &str, select: &str, value: &str) {
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
const COUNT: &str = "const count = t => { const c = document.querySelector(t + ' .count'); \
                     return c ? [+c.dataset.shown, +c.dataset.total] : null; };";

/// The table's shown and total counts, and its rows' names, in order.
fn shown(tab: &Page, table: &str) -> (u64, u64, Vec<String>) {
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
fn texts(tab: &Page, table: &str, key: &str) -> Vec<(String, Option<String>)> {
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

/// `1,719` or `-2`, as the page writes a number.
fn grouped(value: i64) -> String {
    let digits = thousands(value.unsigned_abs());
    if value < 0 {
        format!("-{digits}")
    } else {
        digits
    }
}

/// A record's categories as the page writes them, dearest first.
fn category_text(categories: &Value) -> String {
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
fn category_difference(a: &Value, b: &Value) -> String {
    let cus = |side: &Value| -> std::collections::BTreeMap<String, i64> {
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
fn signed_text(value: i64) -> String {
    format!("{}{}", if value > 0 { "+" } else { "" }, grouped(value))
}

/// A frame's self CUs in each of two records, and the change.
type FrameChange = (String, i64, i64, i64);

/// Each row's "which frames differ" cell: its summary, the frames its
/// table lists (frame, self CUs in each record, change) and its total.
fn frame_differences(tab: &Page, table: &str) -> Vec<(String, Vec<FrameChange>, i64)> {
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

/// Each frame's self CUs from a record's folded stacks (`profile`, beside
/// the page): a line's CUs belong to its last frame.
fn self_cus(dir: &Path, record: &Value) -> std::collections::BTreeMap<String, i64> {
    let path = dir.join(record["profile"].as_str().expect("a profiled record"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut frames = std::collections::BTreeMap::new();
    for line in text.lines() {
        let (stack, cus) = line.rsplit_once(' ').unwrap();
        let frame = stack.rsplit(';').next().unwrap().to_string();
        *frames.entry(frame).or_insert(0) += cus.parse::<i64>().unwrap();
    }
    frames
}

/// The frames whose self CUs differ between `a` and `b`, largest change
/// first, from their folded stacks; a name with `;` is folded as `,`.
fn frame_difference(dir: &Path, a: &Value, b: &Value) -> Vec<FrameChange> {
    changes(&self_cus(dir, a), &self_cus(dir, b))
}

/// Each name whose CUs differ between two maps, with both and the change,
/// largest change first (as the page orders them).
fn changes(
    a: &std::collections::BTreeMap<String, i64>,
    b: &std::collections::BTreeMap<String, i64>,
) -> Vec<FrameChange> {
    let mut names: Vec<&String> = a.keys().chain(b.keys()).collect();
    names.sort();
    names.dedup();
    let cus = |side: &std::collections::BTreeMap<String, i64>, name: &str| {
        side.get(name).copied().unwrap_or(0)
    };
    let mut moved: Vec<FrameChange> = names
        .into_iter()
        .map(|name| (name.clone(), cus(a, name), cus(b, name)))
        .map(|(name, a, b)| (name, a, b, a - b))
        .filter(|f| f.3 != 0)
        .collect();
    moved.sort_by(largest_change_first);
    moved
}

fn largest_change_first(x: &FrameChange, y: &FrameChange) -> std::cmp::Ordering {
    y.3.abs().cmp(&x.3.abs()).then(x.0.cmp(&y.0))
}

/// The values of the column `key` of the table's rows, in order.
fn column(tab: &Page, table: &str, key: &str) -> Vec<f64> {
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

fn records(path: &Path, key: Option<&str>) -> Vec<Value> {
    let json: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let list = match key {
        Some(key) => &json[key],
        None => &json,
    };
    list.as_array().unwrap().clone()
}

/// Every `make idl` run under `dir`: its folder's name, its records but
/// the moves table's, and the moves table's (operation `move`).
fn idl_runs(dir: &Path) -> Vec<(String, usize, usize)> {
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

#[test]
#[ignore = "make test runs it last, when make bench, make profile and the make idl runs have written what the page shows"]
fn the_page_in_a_real_browser() {
    let workspace = Workspace::current();
    let dir = workspace.benches_dir();
    let results = dir.join("results.json");
    assert!(
        results.is_file(),
        "no target/benches/results.json: run make bench first"
    );
    let path = page::write(&dir).unwrap_or_else(|e| panic!("{e}"));
    let bytes = fs::metadata(&path).unwrap().len();
    assert!(bytes < 3 << 20, "report.html is {bytes} bytes, over 3 MB");
    let runs = idl_runs(&dir.join("idl"));
    assert!(
        !runs.is_empty(),
        "no make idl run under target/benches/idl/: make test's idl tests make them"
    );
    let Some(chromium) = chromium() else { return };

    let tab = Page::launch(&chromium, (1400, 2400));
    for domain in ["Runtime", "Log", "Network"] {
        tab.call(&format!("{domain}.enable"), json!({}));
    }
    let url = format!("file://{}", path.canonicalize().unwrap().display());
    tab.navigate(&url);
    tab.wait_for("#families tbody tr");

    // Every record of results.json is in the table.
    let all = records(&results, Some("results"));
    let families = "#families";
    let (count, total, rows) = shown(&tab, families);
    assert_eq!((count, total), (all.len() as u64, all.len() as u64));
    assert_eq!(rows.len(), all.len());

    // Each row shows its record's change against the committed baseline.
    let shown_deltas = eval(
        &tab,
        "(() => { const i = [...document.querySelectorAll('#families .scroll > table > thead > tr > th')].findIndex(h => h.dataset.key === 'delta_cus'); \
         return Object.fromEntries([...document.querySelectorAll('#families .scroll > table > tbody > tr')].map(r => [r.dataset.row, r.children[i].dataset.value ?? null])); })()",
    );
    for record in &all {
        let row = record["row"].as_str().unwrap();
        let want = record["delta_cus"].as_i64().map(|d| d.to_string());
        let shown = shown_deltas[row].as_str().map(str::to_string);
        assert_eq!(shown, want, "{row}: the change against the baseline");
    }

    // The page fits a 1,400-pixel window: nothing scrolls the page sideways
    // (the records table scrolls in its own frame).
    let overflow = eval(
        &tab,
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    assert_eq!(
        overflow, 0,
        "the page is wider than the window by {overflow} px"
    );

    // Every link of the page leads somewhere: a file on disk, or a place
    // in the page.
    let links = eval(
        &tab,
        "[...document.querySelectorAll('a[href]')].map(a => a.href)",
    );
    for link in links.as_array().unwrap() {
        let link = link.as_str().unwrap();
        if let Some(file) = link.strip_prefix("file://") {
            let file = file.split('#').next().unwrap();
            assert!(
                Path::new(file).exists(),
                "the page links to {file}, which is not there"
            );
        }
    }

    // A filter shows exactly its records.
    choose(&tab, families, "data-filter=family", "message");
    choose(&tab, families, "data-filter=program", "zerocopy");
    let expected: Vec<String> = all
        .iter()
        .filter(|r| r["family"] == "message" && r["program"] == "zerocopy")
        .map(|r| r["row"].as_str().unwrap().to_string())
        .collect();
    let (count, _, mut rows) = shown(&tab, families);
    assert!(!expected.is_empty());
    assert_eq!(count as usize, expected.len());
    rows.sort();
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(rows, sorted, "the filtered rows");

    // A sort by CUs orders them, up and then down.
    let sort_by_cus = "document.querySelector('#families th[data-key=cus]').click()";
    eval(&tab, &format!("({sort_by_cus}, true)"));
    let up = column(&tab, families, "cus");
    assert!(up.windows(2).all(|w| w[0] <= w[1]), "ascending: {up:?}");
    eval(&tab, &format!("({sort_by_cus}, true)"));
    let down = column(&tab, families, "cus");
    assert!(
        down.windows(2).all(|w| w[0] >= w[1]),
        "descending: {down:?}"
    );
    assert_eq!(down.len(), expected.len());

    // Compare mode: the ratio on a row is the two records' CUs divided.
    choose(&tab, families, "data-filter=family", "token");
    choose(&tab, families, "data-filter=program", "");
    choose(&tab, families, "data-compare=a", "borsh");
    choose(&tab, families, "data-compare=b", "bytemuck");
    let (count, _, rows) = shown(&tab, families);
    assert!(count > 0, "no row compares borsh with bytemuck");
    let ratios = column(&tab, families, "ratio");
    let find = |program: &str, like: &Value| {
        all.iter()
            .find(|r| {
                r["program"] == program
                    && [
                        "family",
                        "framework",
                        "shape",
                        "size",
                        "instance",
                        "operation",
                    ]
                    .iter()
                    .all(|k| r[*k] == like[*k])
            })
            .unwrap_or_else(|| panic!("no {program} record like {like}"))
            .clone()
    };
    for (row, ratio) in rows.iter().zip(&ratios) {
        let a = all.iter().find(|r| r["row"] == row.as_str()).unwrap();
        assert_eq!(a["program"], "borsh", "{row}");
        let b = find("bytemuck", a);
        let want = a["cus"].as_f64().unwrap() / b["cus"].as_f64().unwrap();
        assert!((ratio - want).abs() < 1e-9, "{row}: {ratio}, not {want}");
    }

    // Where the CUs go (make test runs make profile first): in compare
    // mode, each row says which categories grow and which shrink, from
    // the two records' categories.
    let differs = texts(&tab, families, "differs");
    assert_eq!(differs.len(), rows.len());
    for (row, (text, _)) in rows.iter().zip(&differs) {
        let a = all.iter().find(|r| r["row"] == row.as_str()).unwrap();
        let b = find("bytemuck", a);
        assert_eq!(
            *text,
            category_difference(&a["categories"], &b["categories"]),
            "{row}"
        );
    }
    // And which frames differ: every frame whose self CUs differ, side by
    // side, as the two rows' folded stacks say, the changes summing to the
    // rows' difference; the three largest changes in the cell's summary.
    let frames = frame_differences(&tab, families);
    assert_eq!(frames.len(), rows.len());
    for (row, (summary, shown, total)) in rows.iter().zip(&frames) {
        let a = all.iter().find(|r| r["row"] == row.as_str()).unwrap();
        let b = find("bytemuck", a);
        // The page lists the largest changes first (ties in its own
        // order); its names are folded as the files fold them.
        assert!(
            shown.windows(2).all(|w| w[0].3.abs() >= w[1].3.abs()),
            "{row}: {shown:?}"
        );
        let top: Vec<String> = shown
            .iter()
            .take(3)
            .map(|(frame, _, _, change)| format!("{frame} {}", signed_text(*change)))
            .collect();
        let more = match shown.len() {
            0..=3 => String::new(),
            n => format!(" · {} more", n - 3),
        };
        assert_eq!(*summary, top.join(" · ") + &more, "{row}");
        let mut folded: Vec<FrameChange> = shown
            .iter()
            .map(|(frame, a, b, change)| (frame.replace(';', ","), *a, *b, *change))
            .collect();
        folded.sort_by(largest_change_first);
        assert_eq!(
            folded,
            frame_difference(&dir, a, &b),
            "{row}: the frames that differ"
        );
        assert_eq!(
            *total,
            a["cus"].as_i64().unwrap() - b["cus"].as_i64().unwrap(),
            "{row}"
        );
    }
    // Out of compare mode, each row's categories and its flamegraph, a
    // file beside the page.
    choose(&tab, families, "data-compare=a", "");
    choose(&tab, families, "data-compare=b", "");
    let (_, _, rows) = shown(&tab, families);
    let wheres = texts(&tab, families, "where");
    let flamegraphs = texts(&tab, families, "flamegraph");
    for ((row, (text, _)), (_, href)) in rows.iter().zip(&wheres).zip(&flamegraphs) {
        let record = all.iter().find(|r| r["row"] == row.as_str()).unwrap();
        assert_eq!(*text, category_text(&record["categories"]), "{row}");
        let href = href
            .as_deref()
            .unwrap_or_else(|| panic!("{row}: no flamegraph link"));
        let svg =
            fs::read_to_string(dir.join(href)).unwrap_or_else(|e| panic!("{row}: {href}: {e}"));
        assert!(
            svg.contains("<svg") && svg.contains(&format!("{} CUs", record["cus"])),
            "{row}: {href}"
        );
    }

    // Each make idl run has its section, holding all its records.
    // An Anchor IDL's run also has its moves table, holding every move.
    // Read in one evaluation for every run: each call to the browser costs
    // about a tenth of a second.
    let programs: Vec<&str> = runs.iter().map(|(program, ..)| program.as_str()).collect();
    let sections = eval(
        &tab,
        &format!(
            "((programs) => {{ {COUNT} \
             return Object.fromEntries(programs.map(p => {{ \
               const t = `[data-moves=\"${{p}}\"]`, m = document.querySelector(t); \
               let moves = null; \
               if (m) {{ const i = [...m.querySelectorAll('thead th')].findIndex(th => th.dataset.key === 'change'); \
                 moves = {{ count: count(t), changes: [...m.querySelectorAll('tbody tr')].map(r => [r.children[i].dataset.value ?? '', r.children[i].textContent]) }}; }} \
               return [p, {{ count: count('#idl-' + p), moves }}]; }})); }})({})",
            serde_json::to_string(&programs).unwrap()
        ),
    );
    for (program, count, moves) in &runs {
        let section = &sections[program.as_str()];
        assert_eq!(
            section["count"],
            serde_json::json!([count, count]),
            "{program}: the shown and total records"
        );
        let table = &section["moves"];
        assert_eq!(
            !table.is_null(),
            *moves > 0,
            "{program}: a moves table where it has moves"
        );
        if *moves > 0 {
            assert_eq!(
                table["count"],
                serde_json::json!([moves, moves]),
                "{program}'s moves"
            );
            // Each change reads as what it is: today's path, a saving, or
            // a cost with its `+`.
            for pair in table["changes"].as_array().unwrap() {
                let (value, text) = (pair[0].as_str().unwrap(), pair[1].as_str().unwrap());
                match value.parse::<i64>() {
                    Ok(n) if n > 0 => {
                        assert!(text.starts_with('+'), "{program}: {value} shown {text}")
                    }
                    Ok(n) if n < 0 => {
                        assert!(text.starts_with('-'), "{program}: {value} shown {text}")
                    }
                    _ => assert!(
                        value == "today" || value == "0",
                        "{program}: {value} shown {text}"
                    ),
                }
            }
        }
    }

    // A profiled make idl run (make test's jito-tip-distribution run,
    // `PROFILE=1`): comparing `Account<T>` with `AccountLoader<T>` in its
    // table, each row's frames that differ sum to the two rows' CUs'
    // difference, as the benchmark's do.
    let profiled: Vec<&String> = runs
        .iter()
        .map(|(program, ..)| program)
        .filter(|program| {
            records(
                &dir.join("idl").join(program.as_str()).join("results.json"),
                None,
            )
            .iter()
            .any(|r| r["format"] == "anchor1_account_loader" && r.get("categories").is_some())
        })
        .collect();
    for program in profiled {
        // The run's records table, not its moves table beside it.
        let table = format!("[data-source=\"idl:{program}\"]");
        choose(&tab, &table, "data-compare=a", "anchor1_account");
        choose(&tab, &table, "data-compare=b", "anchor1_account_loader");
        let (count, _, rows) = shown(&tab, &table);
        assert!(count > 0, "{program}: no row compares the two paths");
        let frames = frame_differences(&tab, &table);
        assert_eq!(frames.len(), rows.len(), "{program}");
        let all = records(
            &dir.join("idl").join(program.as_str()).join("results.json"),
            None,
        );
        for (row, (_, shown, total)) in rows.iter().zip(&frames) {
            let a = all.iter().find(|r| r["row"] == row.as_str()).unwrap();
            let b = all
                .iter()
                .find(|r| {
                    r["format"] == "anchor1_account_loader"
                        && ["site", "name", "operation", "instance"]
                            .iter()
                            .all(|k| r[*k] == a[*k])
                })
                .unwrap_or_else(|| panic!("{row}: no loader record"));
            let difference = a["cus"].as_i64().unwrap() - b["cus"].as_i64().unwrap();
            assert_eq!(*total, difference, "{program} {row}");
            let changes: i64 = shown.iter().map(|(.., change)| change).sum();
            assert_eq!(changes, difference, "{program} {row}: {shown:?}");
            assert!(!shown.is_empty(), "{program} {row}");
        }
        choose(&tab, &table, "data-compare=a", "");
        choose(&tab, &table, "data-compare=b", "");
    }

    // The charts are drawn, with their values on the bars and points.
    let drawn = eval(
        &tab,
        "[...document.querySelectorAll('.chart')].map(c => [c.dataset.chart, c.querySelectorAll('[data-value]').length])",
    );
    let idl_charts: Vec<String> = runs.iter().map(|(p, ..)| format!("idl-{p}")).collect();
    let with_accounts: Vec<&String> = idl_charts
        .iter()
        .filter(|chart| {
            let program = chart.trim_start_matches("idl-");
            records(&dir.join("idl").join(program).join("results.json"), None)
                .iter()
                .any(|r| r["site"] == "account" && r["cus"].is_u64())
        })
        .collect();
    let expected = [
        "token",
        "message",
        "metadata",
        "frameworks",
        "events",
        "footprint",
        "anchor-versions",
        "categories",
    ]
    .into_iter()
    .chain(with_accounts.iter().map(|c| c.as_str()));
    for chart in expected {
        let marks = drawn
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c[0] == chart)
            .map_or(0, |c| c[1].as_u64().unwrap());
        assert!(marks > 0, "chart {chart}: nothing drawn ({drawn})");
    }

    // Where the CUs go: the chart opens on the token family's `full`, a
    // bar per program stacked by category, each bar's parts summing to
    // its record's CUs.
    assert_eq!(
        eval(
            &tab,
            "document.querySelector('[data-chart=categories] select').value"
        ),
        "token: full"
    );
    let bars = eval(
        &tab,
        "Object.entries([...document.querySelectorAll('[data-chart=categories] rect')].reduce((sum, r) => { \
           sum[r.dataset.category] = (sum[r.dataset.category] ?? 0) + Number(r.dataset.value); return sum; }, {}))",
    );
    let all = records(&results, Some("results"));
    let bars = bars.as_array().unwrap();
    assert!(bars.len() >= 11, "{bars:?}");
    for bar in bars {
        let (label, cus) = (bar[0].as_str().unwrap(), bar[1].as_u64().unwrap());
        let record = all
            .iter()
            .find(|r| {
                let (framework, program) = (
                    r["framework"].as_str().unwrap(),
                    r["program"].as_str().unwrap(),
                );
                let named = if framework == "pinocchio" {
                    program.to_string()
                } else {
                    format!("{framework}/{}", program.trim_start_matches("token/"))
                };
                r["family"] == "token"
                    && r["operation"] == "full"
                    && r["shape"].as_str().unwrap_or("exact") == "exact"
                    && named == label
            })
            .unwrap_or_else(|| panic!("no record for the bar {label}"));
        assert_eq!(record["cus"].as_u64(), Some(cus), "{label}");
    }

    // The release chart: one dot per measured cell of the operation it
    // shows.
    let matrix: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(dir.join("anchor_versions.json"))
            .or_else(|_| fs::read_to_string(dir.join("../../benches/anchor_versions.json")))
            .unwrap(),
    )
    .unwrap();
    let rows = matrix["rows"].as_object().unwrap();
    let key = |r: &serde_json::Value| {
        let group = r["group"].as_str().unwrap();
        let operation = r["operation"].as_str().unwrap().to_string();
        if group.is_empty() || group == "exact" {
            operation
        } else {
            format!("{operation} / {group}")
        }
    };
    // The operation the chart opens on, as the page chose it.
    let first = eval(
        &tab,
        "document.querySelector('[data-chart=anchor-versions] select').value",
    );
    let first = first.as_str().unwrap().to_string();
    let cells = rows
        .values()
        .filter(|r| key(r) == first)
        .flat_map(|r| r["cells"].as_object().unwrap().values())
        .filter(|c| c.is_u64())
        .count();
    let dots = eval(
        &tab,
        "document.querySelectorAll('[data-chart=anchor-versions] circle').length",
    );
    assert_eq!(
        dots.as_u64(),
        Some(cells as u64),
        "release chart for {first}"
    );

    // Anchor 2 is another program: its point stands apart, past a rule,
    // not joined to the 1.x releases' line.
    let releases = matrix["releases"].as_array().unwrap();
    let anchor1 = releases
        .iter()
        .filter(|r| {
            let v = r["release"].as_str().unwrap();
            v.starts_with("0.") || v.starts_with("1.")
        })
        .count();
    assert!(anchor1 < releases.len(), "the matrix has Anchor 2's column");
    let joined = eval(
        &tab,
        "[...document.querySelectorAll('[data-chart=anchor-versions] polyline')].map(l => \
         l.getAttribute('points').split(' ').filter(p => p).length)",
    );
    for points in joined.as_array().unwrap() {
        let points = points.as_u64().unwrap() as usize;
        assert!(
            points <= anchor1,
            "a release line joins {points} points; the 1.x releases are {anchor1}"
        );
    }
    assert_eq!(
        eval(
            &tab,
            "document.querySelectorAll('[data-chart=anchor-versions] line.apart').length"
        ),
        1,
        "the rule before Anchor 2"
    );

    // The legend says what the page's words mean, each term once.
    let legend = eval(
        &tab,
        "[...document.querySelectorAll('#legend li strong')].map(s => s.textContent)",
    );
    assert_eq!(
        legend,
        serde_json::json!([
            "Lower is better.",
            "Shapes",
            "Floor",
            "CUs above the floor",
            "x the cheapest",
            "change vs baseline",
            "Compare"
        ])
    );
    let legend_text = eval(&tab, "document.querySelector('#legend').textContent");
    for shape in ["exact", "at_least", "unchecked"] {
        assert!(
            legend_text
                .as_str()
                .unwrap()
                .contains(&format!("{shape}: ")),
            "the legend defines {shape}"
        );
    }

    // Nothing is cut off: every chart's text lies inside its drawing, and
    // every table header shows its whole label.
    let clipped = eval(
        &tab,
        "[...document.querySelectorAll('[data-chart] svg')].flatMap(svg => { \
           const box = svg.getBoundingClientRect(); \
           return [...svg.querySelectorAll('text')].filter(t => t.textContent).map(t => [t, t.getBoundingClientRect()]) \
             .filter(([, r]) => r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) \
             .map(([t]) => svg.closest('[data-chart]').dataset.chart + ': ' + t.textContent); })",
    );
    assert_eq!(clipped, serde_json::json!([]), "chart labels cut off");
    let cut = eval(
        &tab,
        "[...document.querySelectorAll('th')].filter(h => h.offsetParent && h.scrollWidth > h.clientWidth + 1) \
           .map(h => h.textContent)",
    );
    assert_eq!(cut, serde_json::json!([]), "table headers cut off");

    // The message chart's sizes sit on a proportional (log) axis: the
    // points' distances are the sizes' log distances.
    let xs = eval(
        &tab,
        "[...document.querySelector('[data-chart=message] polyline').getAttribute('points').split(' ')].map(p => +p.split(',')[0])",
    );
    let xs: Vec<f64> = xs
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_f64().unwrap())
        .collect();
    let sizes = [160f64, 904., 3232., 5400., 7448., 10136.];
    assert_eq!(xs.len(), sizes.len(), "{xs:?}");
    for i in 1..sizes.len() - 1 {
        let want = (sizes[i] / sizes[0]).log10() / (sizes[5] / sizes[0]).log10();
        let got = (xs[i] - xs[0]) / (xs[5] - xs[0]);
        assert!(
            (want - got).abs() < 1e-6,
            "size {}: at {got}, not {want}",
            sizes[i]
        );
    }

    // For people to look at: the top of the page, the table filtered.
    choose(&tab, families, "data-compare=a", "");
    choose(&tab, families, "data-compare=b", "");
    choose(&tab, families, "data-filter=family", "");
    fs::write(dir.join("report.png"), tab.screenshot()).unwrap();

    // Console errors, exceptions and log entries, and every request.
    let errors: Vec<String> = (tab.events("Runtime.consoleAPICalled").into_iter())
        .filter(|call| call["type"] == "error")
        .map(|call| format!("console.error: {}", call["args"]))
        .chain(
            (tab.events("Runtime.exceptionThrown").into_iter())
                .map(|thrown| format!("exception: {}", thrown["exceptionDetails"])),
        )
        .chain(
            (tab.events("Log.entryAdded").into_iter())
                .map(|entry| format!("{}: {}", entry["entry"]["level"], entry["entry"]["text"])),
        )
        .collect();
    assert!(errors.is_empty(), "the page logged errors: {errors:?}");
    let requests: Vec<String> = (tab.events("Network.requestWillBeSent").into_iter())
        .map(|sent| sent["request"]["url"].as_str().unwrap().to_string())
        .collect();
    assert!(
        requests.iter().all(|r| *r == url),
        "the page made requests besides its own file: {requests:?}"
    );
    let resources = eval(&tab, "performance.getEntriesByType('resource').length");
    assert_eq!(resources, 0, "resources fetched by the page");
}
