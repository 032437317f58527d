//! `make profile`'s output, as `make test` leaves it (every row profiled,
//! each program named from the `.so.debug` `make all` keeps beside it).
//! Run last (`-- --ignored`), after it.
//!
//! Every record of `results.json` names its profile and carries its
//! categories and its frames' self CUs; each sums exactly to its CUs, as
//! does its folded file, and no frame of it is named by address. Every program is named by inlined frame, with
//! the frames the docs' explanations rest on.

use std::{collections::BTreeMap, fs};

use benches::Workspace;
use serde_json::Value;

fn benches_dir() -> std::path::PathBuf {
    Workspace::current().benches_dir()
}

fn records() -> Vec<Value> {
    let path = benches_dir().join("results.json");
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run make profile first", path.display()));
    let results: Value = serde_json::from_str(&text).unwrap();
    let mut records: Vec<Value> = results["results"].as_array().unwrap().clone();
    records.extend(results["floor"].as_array().unwrap().iter().cloned());
    records
}

/// A folded file's stacks and their CUs.
fn folded(path: &str) -> BTreeMap<String, u64> {
    let path = benches_dir().join(path);
    fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|line| {
            let (stack, cus) = line.rsplit_once(' ').expect("`stack CUs`");
            (stack.to_string(), cus.parse().expect("CUs"))
        })
        .collect()
}

#[test]
#[ignore = "reads make profile's output: make test runs it after make profile"]
fn every_record_sums_exactly_in_its_profile_its_categories_and_its_frames() {
    let records = records();
    assert!(records.len() >= 680, "{} records", records.len());
    for record in &records {
        let row = record["row"].as_str().unwrap();
        let cus = record["cus"].as_u64().unwrap();
        let categories: u64 = record["categories"]
            .as_object()
            .unwrap_or_else(|| panic!("{row}: no categories"))
            .values()
            .map(|v| v.as_u64().unwrap())
            .sum();
        assert_eq!(categories, cus, "{row}: categories");
        let frames = record["frames"]
            .as_object()
            .unwrap_or_else(|| panic!("{row}: no frames"));
        assert_eq!(
            frames.values().map(|v| v.as_u64().unwrap()).sum::<u64>(),
            cus,
            "{row}: frames' self CUs"
        );
        assert!(frames.values().all(|v| v.as_u64() > Some(0)), "{row}");
        let stacks = folded(
            record["profile"]
                .as_str()
                .unwrap_or_else(|| panic!("{row}: no profile")),
        );
        assert_eq!(stacks.values().sum::<u64>(), cus, "{row}: folded stacks");
        assert!(
            stacks.keys().all(|s| !s.ends_with(";unattributed")),
            "{row}: CUs no charge explains"
        );
        // Every function the benchmark builds is named: no CU under a
        // frame known only by its address.
        let by_address: Vec<&String> = stacks
            .keys()
            .filter(|s| {
                s.split(';')
                    .any(|f| f.starts_with("fn@0x") || f.starts_with("pc@0x"))
            })
            .collect();
        assert!(
            by_address.is_empty(),
            "{row}: CUs under a frame named by address: {by_address:?}"
        );
    }
}

/// Every program is named by inlined frame (its `.so.debug`'s bytes
/// checked), and little left to `other` wherever every function of a
/// program is named so.
#[test]
#[ignore = "reads make profile's output: make test runs it after make profile"]
fn every_program_is_named_by_inlined_frame() {
    let summary = fs::read_to_string(benches_dir().join("profile/summary.md")).unwrap();
    let named = benches::profile::summary::namings_of(&summary)
        .expect("summary.md names how each program's code is named");
    let records = records();
    for record in &records {
        let row = record["row"].as_str().unwrap();
        let label = row.split("::").next().unwrap();
        let how = named
            .get(label)
            .unwrap_or_else(|| panic!("{row}: {label} is not in summary.md's namings"));
        assert!(how.starts_with("inlined frame"), "{label}: named by {how}");
        // Named by inlined frame throughout (no function by address).
        if how.contains("by address") {
            continue;
        }
        let cus = record["cus"].as_u64().unwrap();
        let other = record["categories"]["other"].as_u64().unwrap_or(0);
        assert!(
            other * 100 <= cus * OTHER_PERCENT,
            "{row}: {other} of {cus} CUs are `other`"
        );
    }
}

/// The most of a row named by inlined frame that `other` may hold.
const OTHER_PERCENT: u64 = 20;

/// The CUs of a row's stacks that hold a frame starting with `prefix`
/// (the docs' `frame:` figures count the same way).
fn cus_under(row: &str, prefix: &str) -> u64 {
    let stem = row.replace("::", "/");
    let path = benches_dir().join(format!("profile/{stem}.folded"));
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    benches::profile::figures::through(&text, prefix).unwrap_or(0)
}

/// The docs' figures that only a profile says (`<!-- ROW frame:NAME -->`,
/// `<!-- ROW category:NAME -->`: the postcard family's byte fields and
/// varints, the duplicate-mutable check's `insert`, solana-program's
/// entrypoint, `LazyAccount<T>`'s offsets, unchecked borsh's copies) are
/// this profile's.
#[test]
#[ignore = "reads make profile's output: make test runs it after make profile"]
fn the_docs_profile_figures_are_this_runs() {
    let differs = benches::profile::figures::update(&Workspace::current(), false)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        differs.is_empty(),
        "figures differ from make profile's run (make profile DOCS=1 rewrites them):\n  {}",
        differs.join("\n  ")
    );
    // The docs hold some: a count of them keeps a silent reader honest.
    let root = Workspace::current().root;
    let marks: usize = benches::report::docs::files(&root)
        .unwrap()
        .iter()
        .map(|path| {
            benches::report::docs::find_figures(&fs::read_to_string(path).unwrap())
                .iter()
                .filter(|f| benches::report::docs::is_profile_field(&f.field))
                .count()
        })
        .sum();
    assert!(marks >= 9, "{marks} profile figures in the docs");
}

/// docs/frameworks.md: anchor-lang 1.0 added a check that no account is
/// passed twice as mutable, a `HashSet` of addresses (SipHash) on every
/// `Account<T>` write. The profile holds it: the set's `insert` frames in
/// `Account<T>`'s `update_amount` carry within 10% of what the release
/// matrix (benches/anchor_versions.json) shows 1.0 added to that row, and
/// no such frame appears where no account is written as `Account<T>`.
#[test]
#[ignore = "reads make profile's output: make test runs it after make profile"]
fn the_duplicate_mutable_check_is_where_anchor_1_0_spends() {
    const SET_INSERT: &str = "insert<solana_address::Address";
    let matrix: Value = serde_json::from_str(
        &fs::read_to_string(
            Workspace::current()
                .root
                .join("benches/anchor_versions.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let cells = &matrix["rows"]["anchor1/token/account::update_amount"]["cells"];
    let added = cells["1.0.3"].as_u64().unwrap() - cells["0.32.2"].as_u64().unwrap();
    let check = cus_under("anchor1/token/account::update_amount", SET_INSERT);
    assert!(
        check * 10 >= added * 9 && check * 10 <= added * 11,
        "the duplicate-mutable check's frames carry {check} CUs; 1.0 added {added}"
    );
    for row in [
        "anchor1/token/account::read_owner",
        "anchor1/token/account_loader::update_amount",
        "anchor1/token/account_loader::read_owner",
    ] {
        assert_eq!(cus_under(row, SET_INSERT), 0, "{row}");
    }
}

/// docs/frameworks.md: on solana-program's entrypoint "each crate's own
/// code is the same as on pinocchio's entrypoint, so a row's difference
/// from the crate's `exact` row is the entrypoint's". The profiles hold
/// it for borsh: the decode and the encode together cost the same CUs on both
/// entrypoints, and the entrypoint's category carries the difference
/// (its own and its allocations, within 10%; the checks and the
/// operation differ by a few CUs).
#[test]
#[ignore = "reads make profile's output: make test runs it after make profile"]
fn on_solana_programs_entrypoint_the_difference_is_the_entrypoint() {
    let records = records();
    let categories = |row: &str| {
        let record = records
            .iter()
            .find(|r| r["row"] == row)
            .unwrap_or_else(|| panic!("no record `{row}`"));
        let of = |name: &str| record["categories"][name].as_u64().unwrap_or(0);
        (
            record["cus"].as_u64().unwrap(),
            // The entrypoint's own work and what it allocates (the
            // `AccountInfo`s, their `Rc`s and the `Vec`).
            of("entrypoint") + of("allocation"),
            of("decode"),
            of("encode"),
        )
    };
    for operation in ["full", "read_owner", "update_amount"] {
        let (cus, entrypoint, decode, encode) =
            categories(&format!("solana-program/token/borsh::{operation}"));
        let (pin_cus, pin_entrypoint, pin_decode, pin_encode) =
            categories(&format!("borsh::{operation}"));
        // An instruction can fall either side of the decode's or the
        // encode's inline boundary; the two together are the codec's.
        assert_eq!(
            decode + encode,
            pin_decode + pin_encode,
            "{operation}: the codec's own code ({decode} + {encode} against {pin_decode} + {pin_encode})"
        );
        let (more, entrypoint_more) = (cus - pin_cus, entrypoint - pin_entrypoint);
        assert!(
            entrypoint_more * 10 >= more * 9 && entrypoint_more * 10 <= more * 11,
            "{operation}: {more} CUs more on solana-program's entrypoint, {entrypoint_more} of them the entrypoint's"
        );
    }
}

/// docs/framework-contracts.md: `LazyAccount<T>`'s generated offsets call
/// the previous field's offset again for every variable-size field before
/// them, and a mutable `LazyAccount<T>` loads every field on exit. The
/// profile holds it: on every instance, most of a write's CUs run under
/// the `__offset_of_<field>` functions; a read of one field spends little
/// there.
#[test]
#[ignore = "reads make profile's output: make test runs it after make profile"]
fn lazy_accounts_writes_spend_most_in_its_offsets() {
    const OFFSETS: &str = "__offset_of_";
    let records = records();
    let cus = |row: &str| {
        records
            .iter()
            .find(|r| r["row"] == row)
            .unwrap_or_else(|| panic!("no record `{row}`"))["cus"]
            .as_u64()
            .unwrap()
    };
    for instance in ["minimal", "typical", "full"] {
        let row = format!("anchor1/metadata/lazy_account::set_uri/{instance}");
        let (offsets, total) = (cus_under(&row, OFFSETS), cus(&row));
        assert!(
            offsets * 2 > total,
            "{row}: {offsets} of {total} CUs under the offsets"
        );
    }
    let row = "anchor1/metadata/lazy_account::read_royalty/typical";
    let (offsets, total) = (cus_under(row, OFFSETS), cus(row));
    assert!(
        offsets > 0 && offsets * 4 < total,
        "{row}: {offsets} of {total} CUs under the offsets"
    );
}
