//! Each `make idl` run's section and moves table, and a profiled run's
//! compare mode.

use std::path::Path;

use super::{
    browser::{COUNT, choose, eval, frame_differences, shown},
    expected::records,
};
use crate::cdp::Page;

pub(super) fn check(tab: &Page, dir: &Path, runs: &[(String, usize, usize)]) {
    // Each make idl run has its section, holding all its records.
    // An Anchor IDL's run also has its moves table, holding every move.
    // Read in one evaluation for every run: each call to the browser costs
    // about a tenth of a second.
    let programs: Vec<&str> = runs.iter().map(|(program, ..)| program.as_str()).collect();
    let sections = eval(
        tab,
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
    for (program, count, moves) in runs {
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
        choose(tab, &table, "data-compare=a", "anchor1_account");
        choose(tab, &table, "data-compare=b", "anchor1_account_loader");
        let (count, _, rows) = shown(tab, &table);
        assert!(count > 0, "{program}: no row compares the two paths");
        let frames = frame_differences(tab, &table);
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
        choose(tab, &table, "data-compare=a", "");
        choose(tab, &table, "data-compare=b", "");
    }
}
