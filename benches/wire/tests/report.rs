//! `make wire`'s files, from a real (quick) run: written, they parse, and
//! the committed report's sizes, ratios and charts are this run's.

use std::fs;

use benches::{Workspace, message::SIZES, report::docs::sections};
use wire::{
    report::LINK_MBPS,
    timing::{Budget, Timer},
};

#[test]
fn wire_report_files_are_written_and_parse() {
    let workspace = Workspace::current();
    let out = tempfile::tempdir().unwrap();
    let home = out.path().join("criterion");
    // SAFETY: this test binary runs this one test, so no other thread reads
    // the environment; criterion reads the variable once, later.
    unsafe { std::env::set_var("CRITERION_HOME", &home) };
    let mut timer = Timer::new(&home, Budget::QUICK);
    let report = wire::run(&workspace, &mut timer, out.path()).unwrap_or_else(|e| panic!("{e}"));

    let markdown = fs::read_to_string(out.path().join("wire.md")).unwrap();
    assert_eq!(markdown, report.markdown());
    for section in [
        "## Sizes",
        "## Client decode time",
        "## Compression by size bucket",
        "### Realistic content",
        "### Random content",
        "## Where base64+zstd starts to pay (a model)",
        "## On-chain and wire, the largest message",
        "## Metadata accounts: base64 or base64+zstd (the same model)",
    ] {
        assert!(markdown.contains(section), "{section} missing");
    }
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.path().join("wire.json")).unwrap()).unwrap();
    let formats = common::message::HOST_FORMATS.len();
    let message_rows = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["family"] == "message")
        .count();
    assert_eq!(message_rows, formats * SIZES.len());
    // 2 contents x sizes x formats x 3 codecs, 100 instances each.
    let distributions = json["distributions"].as_array().unwrap();
    assert_eq!(distributions.len(), 2 * SIZES.len() * formats * 3);
    assert!(distributions.iter().all(|d| d["instances"] == 100));
    assert!(
        distributions
            .iter()
            .all(|d| d["q1"].as_f64() <= d["median"].as_f64()
                && d["median"].as_f64() <= d["q3"].as_f64())
    );
    assert_eq!(
        json["crossovers"].as_array().unwrap().len(),
        formats * LINK_MBPS.len()
    );
    // Every metadata format's three accounts, sent whole, each decoded and
    // compressed, and the model on each at every link speed.
    let metadata_rows: Vec<&serde_json::Value> = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["family"] == "metadata")
        .collect();
    let metadata_formats = common::metadata::HOST_FORMATS.len();
    assert_eq!(metadata_rows.len(), metadata_formats * 3);
    for row in &metadata_rows {
        let format = common::metadata::host_format(row["format"].as_str().unwrap()).unwrap();
        assert_eq!(
            row["size"].as_u64(),
            Some(format.account_len() as u64),
            "{row}"
        );
        assert!(row["timings"]["decode"].as_f64().unwrap() > 0.0, "{row}");
        assert!(
            row["timings"]["zstd_compress"].as_f64().unwrap() > 0.0,
            "{row}"
        );
    }
    assert_eq!(
        json["metadata_gains"].as_array().unwrap().len(),
        metadata_rows.len() * LINK_MBPS.len()
    );
    let largest = json["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["format"] == "borsh" && r["size"] == 10136)
        .unwrap();
    assert!(
        largest["sizes"]["base64"].as_u64().unwrap() > largest["sizes"]["raw"].as_u64().unwrap()
    );
    assert!(largest["timings"]["decode"].as_f64().unwrap() > 0.0);
    for chart in ["wire_sizes.svg", "wire_ratios.svg"] {
        let svg = fs::read_to_string(out.path().join(chart)).unwrap();
        assert!(svg.starts_with("<svg"), "{chart}");
    }
    committed_report_is_this_trees(&workspace, &markdown, out.path());
}

/// What the committed report (`make wire-baseline`'s, which docs/wire.md
/// quotes) holds that does not depend on the machine is this run's: the
/// sizes, the ratios' quartiles (seeded instances) and both charts. Its
/// timings are the machine's it names.
fn committed_report_is_this_trees(workspace: &Workspace, run: &str, out: &std::path::Path) {
    let redo = "run make wire-baseline and commit benches/wire/";
    let committed = fs::read_to_string(workspace.root.join(benches::committed::WIRE_REPORT))
        .unwrap_or_else(|e| panic!("{}: {e}; {redo}", benches::committed::WIRE_REPORT));
    let (committed, run) = (sections(&committed), sections(run));
    for key in ["sizes", "compression-by-size-bucket"] {
        assert!(
            committed.get(key) == run.get(key),
            "{}'s section `{key}` is not this tree's; {redo}",
            benches::committed::WIRE_REPORT
        );
    }
    for chart in ["wire_sizes.svg", "wire_ratios.svg"] {
        let committed = fs::read(workspace.root.join("benches/wire").join(chart)).unwrap();
        let run = fs::read(out.join(chart)).unwrap();
        assert!(
            committed == run,
            "benches/wire/{chart} is not this tree's; {redo}"
        );
    }
}
