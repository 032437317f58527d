//! `make idl PROFILE=1` on the published jito-tip-distribution IDL (its
//! accounts and instructions, in the pinocchio formats and as Anchor 1.x
//! programs): every measured row is profiled, summing exactly to its CUs,
//! with every program named by inlined frame and no frame by address, and
//! the moves' categories in `summary.md` add up. Ignored here: `make
//! test` runs it after `make idl IDL=benches/published/tip_distribution/idl.json
//! PROFILE=1`.

use std::{collections::BTreeMap, fs, path::PathBuf};

use serde_json::Value;

fn run_dir() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    root.join("target/benches/idl/jito_tip_distribution")
}

fn records() -> Vec<Value> {
    let path = run_dir().join("results.json");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; run make idl IDL=benches/published/tip_distribution/idl.json PROFILE=1 first",
            path.display()
        )
    });
    serde_json::from_str(&text).expect("results.json is JSON")
}

/// The CUs of a folded file: the sum of its lines' counts.
fn folded_cus(text: &str) -> u64 {
    text.lines()
        .map(|line| {
            let (_, count) = line.rsplit_once(' ').expect("a count after the stack");
            count.parse::<u64>().expect("a count")
        })
        .sum()
}

#[test]
#[ignore = "make test runs it after make idl IDL=benches/published/tip_distribution/idl.json PROFILE=1"]
fn every_row_of_a_profiled_run_sums_to_its_cus() {
    let measured: Vec<Value> = records()
        .into_iter()
        .filter(|r| r.get("row").is_some() && r["cus"].is_u64())
        .collect();
    assert!(measured.len() > 100, "{} measured rows", measured.len());
    let sites: std::collections::BTreeSet<&str> =
        measured.iter().filter_map(|r| r["site"].as_str()).collect();
    assert!(
        sites.contains("account") && sites.contains("instruction"),
        "{sites:?}"
    );
    // How each program's code is named, by its label.
    let summary =
        fs::read_to_string(run_dir().join("profile/summary.md")).expect("profile/summary.md");
    let namings = benches::profile::summary::namings_of(&summary)
        .expect("profile/summary.md names how each program's code is named");
    for record in &measured {
        let row = record["row"].as_str().expect("a row name");
        let cus = record["cus"].as_u64().expect("CUs");
        let sum = |key: &str| -> u64 {
            let map = record[key]
                .as_object()
                .unwrap_or_else(|| panic!("{row}: no {key}: was the run profiled?"));
            map.values().map(|v| v.as_u64().expect("CUs")).sum()
        };
        assert_eq!(sum("categories"), cus, "{row}: its categories");
        assert_eq!(sum("frames"), cus, "{row}: its frames' self CUs");
        let folded = run_dir().join(record["profile"].as_str().expect("its folded file"));
        let text = fs::read_to_string(&folded).expect("the folded file is there");
        assert_eq!(folded_cus(&text), cus, "{row}: {}", folded.display());
        assert!(
            !text.contains("unattributed"),
            "{row}: CUs no charge explains"
        );
        // Every program the run built is named by inlined frame (its BTF
        // written, so its line tables kept), and no frame by address.
        let label = text.split(';').next().expect("a stack");
        let naming = namings
            .get(label)
            .unwrap_or_else(|| panic!("{row}: {label} is not in profile/summary.md's namings"));
        assert!(
            naming.starts_with("inlined frame"),
            "{row}: {label} is named by {naming}"
        );
        assert!(
            !text.contains("fn@0x") && !text.contains("pc@0x"),
            "{row}: a frame named by address in {} ({label}: {naming})",
            folded.display()
        );
        for extension in ["svg", "md"] {
            assert!(
                folded.with_extension(extension).exists(),
                "{row}: its .{extension}"
            );
        }
    }
}

/// `| `path` | CUs | change | by category |` and `Today, `x`: N CUs (a
/// 1 · b 2).` lines of the by-category section, checked as they are read.
#[test]
#[ignore = "make test runs it after make idl IDL=benches/published/tip_distribution/idl.json PROFILE=1"]
fn each_moves_categories_add_up_to_its_change() {
    let summary = fs::read_to_string(run_dir().join("summary.md")).expect("summary.md");
    let (_, section) = summary
        .split_once("## Where each move's CUs differ, by category")
        .expect("the by-category section");
    let parse_split = |text: &str| -> BTreeMap<String, i64> {
        text.split(" · ")
            .filter(|part| !part.is_empty())
            .map(|part| {
                let (name, value) = part.rsplit_once(' ').expect("`category value`");
                (name.to_string(), value.parse().expect("a number"))
            })
            .collect()
    };
    let (mut today, mut tables, mut moves) = (None::<(String, i64)>, 0, 0);
    let mut loader_cheaper = Vec::new();
    for line in section.lines() {
        if let Some(rest) = line.strip_prefix("Today, `") {
            let (format, rest) = rest.split_once("`: ").expect("today's path");
            let (cus, rest) = rest.split_once(" CUs (").expect("today's CUs");
            let split = parse_split(rest.trim_end_matches(").").trim_end_matches(')'));
            let cus: i64 = cus.parse().expect("CUs");
            assert_eq!(split.values().sum::<i64>(), cus, "{line}");
            today = Some((format.to_string(), cus));
            tables += 1;
        } else if let Some(rest) = line.strip_prefix("| `") {
            let cells: Vec<&str> = rest.split(" | ").collect();
            let (format, cus, change) = (cells[0].trim_end_matches('`'), cells[1], cells[2]);
            let (cus, change): (i64, i64) = (cus.parse().unwrap(), change.parse().unwrap());
            let split = parse_split(cells[3].trim_end_matches(" |"));
            let (today_format, today_cus) = today.as_ref().expect("a table after today's line");
            assert_ne!(format, today_format, "{line}");
            assert_eq!(cus - today_cus, change, "{line}");
            assert_eq!(split.values().sum::<i64>(), change, "{line}");
            moves += 1;
            // `Account<T>`'s decode and write-back against the loader's
            // cast: the move to `AccountLoader<T>` saves in both.
            if format == "anchor1_account_loader" && today_format == "anchor1_account" {
                assert!(split["decode"] < 0 && split["encode"] < 0, "{line}");
                loader_cheaper.push(line.to_string());
            }
        }
    }
    assert!(tables >= 5 && moves >= 20, "{tables} tables, {moves} moves");
    assert!(loader_cheaper.len() >= 3, "{loader_cheaper:?}");
}
