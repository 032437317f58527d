//! The records table: every record shown with its change against the
//! baseline, the page fitting its window, its links, a filter, a sort,
//! and compare mode (ratios, and which categories and frames differ).

use std::{fs, path::Path};

use serde_json::Value;

use super::{
    browser::{choose, column, eval, frame_differences, shown, texts},
    expected::{
        FrameChange, category_difference, category_text, frame_difference, largest_change_first,
        records, signed_text,
    },
};
use crate::cdp::Page;

pub(super) fn check(tab: &Page, dir: &Path) {
    let results = dir.join("results.json");
    // Every record of results.json is in the table.
    let all = records(&results, Some("results"));
    let families = "#families";
    let (count, total, rows) = shown(tab, families);
    assert_eq!((count, total), (all.len() as u64, all.len() as u64));
    assert_eq!(rows.len(), all.len());

    // Each row shows its record's change against the committed baseline.
    let shown_deltas = eval(
        tab,
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
        tab,
        "document.documentElement.scrollWidth - document.documentElement.clientWidth",
    );
    assert_eq!(
        overflow, 0,
        "the page is wider than the window by {overflow} px"
    );

    // Every link of the page leads somewhere: a file on disk, or a place
    // in the page.
    let links = eval(
        tab,
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
    choose(tab, families, "data-filter=family", "message");
    choose(tab, families, "data-filter=program", "zerocopy");
    let expected: Vec<String> = all
        .iter()
        .filter(|r| r["family"] == "message" && r["program"] == "zerocopy")
        .map(|r| r["row"].as_str().unwrap().to_string())
        .collect();
    let (count, _, mut rows) = shown(tab, families);
    assert!(!expected.is_empty());
    assert_eq!(count as usize, expected.len());
    rows.sort();
    let mut sorted = expected.clone();
    sorted.sort();
    assert_eq!(rows, sorted, "the filtered rows");

    // A sort by CUs orders them, up and then down.
    let sort_by_cus = "document.querySelector('#families th[data-key=cus]').click()";
    eval(tab, &format!("({sort_by_cus}, true)"));
    let up = column(tab, families, "cus");
    assert!(up.windows(2).all(|w| w[0] <= w[1]), "ascending: {up:?}");
    eval(tab, &format!("({sort_by_cus}, true)"));
    let down = column(tab, families, "cus");
    assert!(
        down.windows(2).all(|w| w[0] >= w[1]),
        "descending: {down:?}"
    );
    assert_eq!(down.len(), expected.len());

    // Compare mode: the ratio on a row is the two records' CUs divided.
    choose(tab, families, "data-filter=family", "token");
    choose(tab, families, "data-filter=program", "");
    choose(tab, families, "data-compare=a", "borsh");
    choose(tab, families, "data-compare=b", "bytemuck");
    let (count, _, rows) = shown(tab, families);
    assert!(count > 0, "no row compares borsh with bytemuck");
    let ratios = column(tab, families, "ratio");
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
    let differs = texts(tab, families, "differs");
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
    let frames = frame_differences(tab, families);
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
            frame_difference(dir, a, &b),
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
    choose(tab, families, "data-compare=a", "");
    choose(tab, families, "data-compare=b", "");
    let (_, _, rows) = shown(tab, families);
    let wheres = texts(tab, families, "where");
    let flamegraphs = texts(tab, families, "flamegraph");
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
}
