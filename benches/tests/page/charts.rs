//! The charts (drawn, their bars summing to the records, the release
//! chart's dots and rule, the message chart's log axis), the legend, and
//! nothing cut off.

use std::{fs, path::Path};

use super::{browser::eval, expected::records};
use crate::cdp::Page;

pub(super) fn check(tab: &Page, dir: &Path, runs: &[(String, usize, usize)]) {
    let results = dir.join("results.json");
    // The charts are drawn, with their values on the bars and points.
    let drawn = eval(
        tab,
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
            tab,
            "document.querySelector('[data-chart=categories] select').value"
        ),
        "token: full"
    );
    let bars = eval(
        tab,
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
        tab,
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
        tab,
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
        tab,
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
            tab,
            "document.querySelectorAll('[data-chart=anchor-versions] line.apart').length"
        ),
        1,
        "the rule before Anchor 2"
    );

    // The legend says what the page's words mean, each term once.
    let legend = eval(
        tab,
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
    let legend_text = eval(tab, "document.querySelector('#legend').textContent");
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
        tab,
        "[...document.querySelectorAll('[data-chart] svg')].flatMap(svg => { \
           const box = svg.getBoundingClientRect(); \
           return [...svg.querySelectorAll('text')].filter(t => t.textContent).map(t => [t, t.getBoundingClientRect()]) \
             .filter(([, r]) => r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1 || r.bottom > box.bottom + 1) \
             .map(([t]) => svg.closest('[data-chart]').dataset.chart + ': ' + t.textContent); })",
    );
    assert_eq!(clipped, serde_json::json!([]), "chart labels cut off");
    let cut = eval(
        tab,
        "[...document.querySelectorAll('th')].filter(h => h.offsetParent && h.scrollWidth > h.clientWidth + 1) \
           .map(h => h.textContent)",
    );
    assert_eq!(cut, serde_json::json!([]), "table headers cut off");

    // The message chart's sizes sit on a proportional (log) axis: the
    // points' distances are the sizes' log distances.
    let xs = eval(
        tab,
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
}
