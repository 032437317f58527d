//! The fixed-capacity move generated and measured (`make idl ACCOUNTS=`):
//! a variable account rewritten at the capacities its accounts need, cast
//! in place by bytemuck, zerocopy and Anchor's `AccountLoader<T>`, held to the
//! contract (every write read back by the oracle, a length past its
//! capacity refused: a run with a contract failure fails its test), and
//! its row in the moves table with its bytes, rent and fit. Known
//! answers: the metadata family's record against the family's own
//! fixed-capacity `bytemuck` row, and Squads' `Multisig` by hand.

use std::{fs, path::Path};

use base64::Engine as _;
use idl::{
    capacity::{self, Choices},
    measure::Measured,
    model::{AT_CAPACITY, Kind},
    plan::FieldChoices,
    render::RowFormat,
    report::moves::rent,
    run::{Options, Run},
};
use serde_json::json;

use super::{
    capacity::{MULTISIG, multisig_data as multisig},
    support,
};

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// The CUs of the row of `account` in `format`, `operation`, `full`
/// instance.
fn cus(run: &Run, account: &str, format: RowFormat, operation: &str) -> u64 {
    let row = run
        .rows
        .iter()
        .find(|r| {
            r.name == account
                && r.format == format
                && r.operation == operation
                && r.instance == "full"
        })
        .unwrap_or_else(|| panic!("no {account} {} {operation} row", format.name()));
    match row.outcome {
        Measured::Ran { cus, .. } => cus,
        Measured::CannotRun(ref why) => panic!("{account} {operation}: {why}"),
    }
}

fn bytes_of(run: &Run, account: &str, format: RowFormat) -> usize {
    run.rows
        .iter()
        .find(|r| r.name == account && r.format == format && r.instance == "full")
        .unwrap_or_else(|| panic!("no {account} {} row", format.name()))
        .account_bytes
}

/// The run's `results.json` move records of `account` at capacity.
fn capacity_moves(run: &Run, account: &str) -> Vec<serde_json::Value> {
    let text = fs::read_to_string(run.dir.join("results.json")).unwrap();
    let json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json.as_array()
        .unwrap()
        .iter()
        .filter(|r| r["operation"] == "move" && r["name"] == account)
        .filter(|r| r["move"].get("capacity").is_some())
        .cloned()
        .collect()
}

fn write(dir: &Path, name: &str, value: serde_json::Value) {
    fs::write(dir.join(name), value.to_string()).unwrap();
}

/// The metadata family's record (`metadata.json`, its accounts alone),
/// its `typical` instance the one account held: each capacity is that
/// account's length, so the `full` instance every path runs is cut to
/// them. The fixed-capacity account is the sizing's bytes; `read` (the
/// royalty, as the family's `read_royalty`) costs within 12 CUs of the
/// family's hand-written `bytemuck` row, the same cast
/// (`metadata/bytemuck::read_royalty/typical`). Where they differ, by
/// their profiles (`make idl PROFILE=1`, `make profile`): the generated
/// program checks the IDL account's 8-byte discriminator before the cast
/// (its `record` frame, 5 CUs), where the family's record has none and
/// checks its key byte inside `read_royalty`, and its borrow costs a few
/// more; parsing and comparing the two bytes cost the same.
#[test]
fn the_metadata_records_move_reads_as_the_familys_bytemuck_row() {
    let copy = support::accounts_copy("metadata.json", "capacity");
    let program = {
        let parsed = idl::input::read(&copy).unwrap();
        idl::model::resolve(&parsed, &Default::default())
    };
    let typical = benches::metadata::instance("typical");
    let borsh = common::metadata::host_format("borsh").unwrap();
    let mut data = program.account("Metadata").unwrap().discriminator.clone();
    data.extend((borsh.encode)(&typical));
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "typical.json",
        json!({"pubkey": "M1", "account": {"owner": program.address, "data": [b64(&data), "base64"]}}),
    );
    let options = Options {
        fields: FieldChoices::parse("Metadata.seller_fee_basis_points", "").unwrap(),
        accounts: Some(dir.path().to_path_buf()),
        ..Options::default()
    };
    let run = support::run_copy(&copy, &options);

    let moved_name = format!("Metadata{AT_CAPACITY}");
    let moved = run
        .program
        .account(&moved_name)
        .expect("the move is planned");
    assert_eq!(moved.kind, Kind::FixedCapacity);
    let held = idl::input::accounts::read(dir.path()).unwrap();
    let address = program.address.as_deref().and_then(|a| a.parse().ok());
    let sized = capacity::size(&program, address, Some(&held), &Choices::default());
    let sized = &sized.types[0];
    for cast in [
        RowFormat::Bytemuck,
        RowFormat::Zerocopy,
        RowFormat::Anchor1AccountLoader,
    ] {
        assert_eq!(
            bytes_of(&run, &moved_name, cast),
            sized.account_len.unwrap()
        );
    }
    // The move keeps the field it reads: `read` asks for the royalty.
    let theirs = 48; // benches/baseline.json: metadata/bytemuck::read_royalty/typical
    let baseline = fs::read_to_string(support::root().join("benches/baseline.json")).unwrap();
    assert!(
        baseline.contains(&format!(
            "\"metadata/bytemuck::read_royalty/typical\": {theirs}"
        )),
        "the family's row moved: update this test's figure and its reason"
    );
    let ours = cus(&run, &moved_name, RowFormat::Bytemuck, "read");
    assert!(
        ours.abs_diff(theirs) <= 12,
        "read at capacity: {ours} CUs, the family's bytemuck read_royalty {theirs}"
    );
    // Cheaper than today's path on every operation, as the family's is.
    for operation in ["full", "read", "update"] {
        let today = cus(&run, "Metadata", RowFormat::Anchor1Account, operation);
        let loader = cus(
            &run,
            &moved_name,
            RowFormat::Anchor1AccountLoader,
            operation,
        );
        let cast = cus(&run, &moved_name, RowFormat::Bytemuck, operation);
        assert!(
            cast < loader && loader < today,
            "{operation}: bytemuck {cast}, AccountLoader {loader}, Account<T> {today}"
        );
    }

    // The moves table: the move's paths, its bytes and rent, its fit.
    let bytes = sized.account_len.unwrap();
    let line = format!(
        "| bytemuck at capacity | {} | {} | {} | {:+} | {bytes} | {} |",
        cus(&run, &moved_name, RowFormat::Bytemuck, "full"),
        ours,
        cus(&run, &moved_name, RowFormat::Bytemuck, "update"),
        cus(&run, &moved_name, RowFormat::Bytemuck, "full") as i64
            - cus(&run, "Metadata", RowFormat::Anchor1Account, "full") as i64,
        rent(bytes)
    );
    assert!(run.summary.contains(&line), "{line}\n{}", run.summary);
    let capacities: Vec<String> = sized
        .fields
        .iter()
        .map(|f| format!("`{}` {}", f.variable.name, f.capacity.unwrap().0))
        .collect();
    let fit = format!(
        "The `at capacity` paths run `Metadata`'s fixed-capacity move (its section above) at {}: 1 of 1 of your accounts fit.",
        capacities.join(", ")
    );
    assert!(run.summary.contains(&fit), "{fit}\n{}", run.summary);
    let records = capacity_moves(&run, "Metadata");
    assert_eq!(records.len(), 3, "{records:?}");
    for record in &records {
        assert_eq!(record["move"]["capacity"]["name"], typical.name.len());
        assert_eq!(
            record["move"]["fit"],
            json!({"held": 1, "fit": 1, "fits_all": {}})
        );
        assert_eq!(record["account_bytes"], bytes);
    }
}

/// Squads' `Multisig` (a legacy Anchor IDL) from four accounts of 3, 4, 5
/// and 10 members, at `CAPACITY=Multisig.members=5`: the move's account
/// is 8 + 120 (the fixed fields, the rent collector's flag and key among
/// them) + 1 (the count) + 5 × 33 bytes, three
/// of the four fit, and all would at 10 members; `full` and `update` of
/// the cast leave the bytes the oracle computes, and a count past 5 is
/// refused (the run's contract).
#[test]
fn squads_multisig_at_five_members() {
    let copies = support::root().join("target/idl-tests");
    fs::create_dir_all(&copies).unwrap();
    let idl = copies.join("multisig_capacity.json");
    let text = MULTISIG.replace("\"name\": \"multisig\"", "\"name\": \"multisig_capacity\"");
    if fs::read_to_string(&idl).ok().as_deref() != Some(text.as_str()) {
        benches::files::write_whole(&idl, &text).unwrap();
    }
    let program = idl::model::resolve(&idl::input::read(&idl).unwrap(), &Default::default());
    let squads = program.address.clone().unwrap();
    let discriminator = program.account("Multisig").unwrap().discriminator.clone();
    let dir = tempfile::tempdir().unwrap();
    for members in [3, 4, 5, 10] {
        let data = multisig(&discriminator, members);
        write(
            dir.path(),
            &format!("m{members}.json"),
            json!({"pubkey": format!("M{members}"), "account": {"owner": squads, "data": [b64(&data), "base64"]}}),
        );
    }
    let options = Options {
        accounts: Some(dir.path().to_path_buf()),
        capacities: Choices::parse("Multisig.members=5").unwrap(),
        ..Options::default()
    };
    let run = support::run_copy(&idl, &options);

    let moved_name = format!("Multisig{AT_CAPACITY}");
    let bytes = 8 + 120 + 1 + 5 * 33;
    assert_eq!(bytes_of(&run, &moved_name, RowFormat::Bytemuck), bytes);
    assert_eq!(
        bytes_of(&run, &moved_name, RowFormat::Anchor1AccountLoader),
        bytes
    );
    assert!(
        run.summary.contains(
            "The `at capacity` paths run `Multisig`'s fixed-capacity move (its section above) at `members` 5: 3 of 4 of your accounts fit; all would at `members` 10."
        ),
        "{}",
        run.summary
    );
    let records = capacity_moves(&run, "Multisig");
    assert_eq!(records.len(), 3, "{records:?}");
    for record in &records {
        assert_eq!(record["move"]["capacity"], json!({"members": 5}));
        assert_eq!(
            record["move"]["fit"],
            json!({"held": 4, "fit": 3, "fits_all": {"members": 10}})
        );
        assert_eq!(record["move"]["rent_lamports"], rent(bytes));
    }
}

/// A Codama layout's variable account (`wire.codama.json`'s `table`, its
/// addresses to the end of the data; its accounts alone, renamed so its
/// run folder is its own) at `CAPACITY=table.addresses=256`: the move is
/// 4 (the discriminator field) + 33 (the authority's tagged option, kept:
/// it has a layout) + 8 (the slot) + 2 (a count up to 256) + 256 × 32
/// bytes, cast by bytemuck under the contract; zerocopy, which is not
/// measured on a Codama wire type, says why.
#[test]
fn a_codama_lookup_table_at_capacity() {
    let text =
        fs::read_to_string(support::root().join("benches/idl/idls/wire.codama.json")).unwrap();
    let mut idl: serde_json::Value = serde_json::from_str(&text).unwrap();
    idl["program"]["name"] = "wireCodamaCapacity".into();
    idl["program"]["instructions"] = json!([]);
    let copies = support::root().join("target/idl-tests");
    fs::create_dir_all(&copies).unwrap();
    let copy = copies.join("wire_capacity.codama.json");
    let text = idl.to_string();
    if fs::read_to_string(&copy).ok().as_deref() != Some(text.as_str()) {
        benches::files::write_whole(&copy, &text).unwrap();
    }
    let options = Options {
        capacities: Choices::parse("table.addresses=256").unwrap(),
        ..Options::default()
    };
    let run = support::run_copy(&copy, &options);
    let moved = format!("table{AT_CAPACITY}");
    assert_eq!(
        bytes_of(&run, &moved, RowFormat::Bytemuck),
        4 + 33 + 8 + 2 + 256 * 32
    );
    // Its `read` ran (`cus` fails the test on a row missing or not run).
    cus(&run, &moved, RowFormat::Bytemuck, "read");
    assert!(
        run.summary.contains(
            "No `zerocopy` row: it keeps a Codama wire type (a tagged option): zerocopy is measured on Anchor's layouts"
        ),
        "{}",
        run.summary
    );
}
