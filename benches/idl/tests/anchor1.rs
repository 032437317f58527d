//! `make idl`'s Anchor 1.x programs are the hand-written ones' equals: the
//! token family's record as an IDL (`token.json` zero-copy,
//! `token_borsh.json` borsh), rendered as Anchor 1.x programs, costs what
//! `programs/anchor1/token/account_loader` and `.../account` cost in this
//! tree's `make bench`, within [`TOLERANCE`]. The programs differ in what
//! their handlers do, and only there:
//! - the hand-written `full` and `read_owner` check the owner with
//!   `has_one` (a 32-byte compare with account [1]'s key; `AccountLoader<T>`
//!   loads the record for it), the generated ones do not;
//! - the hand-written `full` and `update_amount` set two fields (`state`
//!   and `amount`), the generated ones one (`delegated_amount`);
//! - the generated `read` compares a pubkey with its argument, which Anchor
//!   decodes (32 bytes).
//!
//! Everything else (the entrypoint, the instruction-name log, the account
//! checks, borsh's decode and encode of the whole record) is the same
//! code, so the two stay within a few percent; a generator that paid for
//! something the hand-written programs do not would leave the band.
//!
//! `LazyAccount<T>` (`token_borsh.json`) is held to
//! `programs/anchor1/token/lazy_account` on `read` and `update` only: the
//! hand-written `full` loads `owner` (for `has_one`), `state` and
//! `amount` one by one, and on exit every other field one by one, where
//! the generated `full` decodes the record at once (`load_mut`), which is
//! what `full` is in every format.
//!
//! The instruction and event programs are not held to
//! `programs/anchor1/token/args_and_events` so: a handler's cost there
//! depends on the handlers beside it (docs/idl-reference.md, "Your program as it
//! runs"), and that program holds `set_record` beside two emitting
//! handlers of the same argument, where the generated ones hold the IDL's
//! instructions, or its events. Their moves are tested here.
//!
//! It also holds the moves table's arithmetic, and a zero-copy record with
//! padding reordered.

use crate::support;

use benches::{Workspace, bench};
use idl::{
    measure::Measured,
    model::{Account, Field, Kind, Site, Struct, Ty},
    render::RowFormat,
    report::moves,
    run::{Options, Run},
};

/// `make idl` on `file` of `idls/` with the default options, in its run
/// folder. `token.json` is the token example's IDL, which `examples.rs`
/// runs with `READ=` and `UPDATE=` in that folder while these tests run:
/// its defaults run on [`support::accounts_copy`] instead, in a folder of
/// its own (`token_family_defaults`), and build its account programs alone
/// (its instruction and event programs are the example's, whose `ARG=` is
/// empty: their moves are read from the example's run).
fn run_defaults(file: &str) -> Run {
    if file == "token.json" {
        support::run_copy(
            &support::accounts_copy(file, "defaults"),
            &Options::default(),
        )
    } else {
        support::run_idl(file, &Options::default())
    }
}

/// How far a generated program's CUs may be from the hand-written one's.
const TOLERANCE: f64 = 0.12;

#[test]
fn rendered_anchor_programs_cost_what_the_hand_written_ones_do() {
    // The run's reports go to a scratch folder: this checkout's stay the
    // user's.
    let scratch = tempfile::tempdir().unwrap();
    let workspace = Workspace::current().with_benches_dir(scratch.path());
    let bench = bench::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let results = bench.results_json();
    let records = benches::report::docs::records(&results);
    let mut out_of_band = Vec::new();
    let all = &[
        ("full", "full"),
        ("read", "read_owner"),
        ("update", "update_amount"),
    ][..];
    for (file, format, hand, operations) in [
        (
            "token.json",
            RowFormat::Anchor1AccountLoader,
            "anchor1/token/account_loader",
            all,
        ),
        (
            "token_borsh.json",
            RowFormat::Anchor1Account,
            "anchor1/token/account",
            all,
        ),
        (
            "token_borsh.json",
            RowFormat::Anchor1LazyAccount,
            "anchor1/token/lazy_account",
            &all[1..],
        ),
    ] {
        let run = run_defaults(file);
        for &(operation, hand_operation) in operations {
            let ours = support::cus(&run, format, operation);
            let row = format!("{hand}::{hand_operation}");
            let theirs = records
                .get(&row)
                .and_then(|r| r["cus"].as_u64())
                .unwrap_or_else(|| panic!("make bench has no row {row}"));
            let off = (ours as f64 - theirs as f64).abs() / theirs as f64;
            if off > TOLERANCE {
                out_of_band.push(format!(
                    "{file} {} {operation}: {ours} CUs, {row} {theirs} ({:.1}% apart)",
                    format.name(),
                    off * 100.0
                ));
            }
        }
    }
    assert!(out_of_band.is_empty(), "{}", out_of_band.join("\n"));
}

/// The CUs of `run`'s row of `name` at `site` in `format`.
fn site_cus(run: &idl::run::Run, site: Site, name: &str, format: RowFormat) -> u64 {
    let row = run
        .rows
        .iter()
        .find(|r| r.site == site && r.name == name && r.format == format)
        .unwrap_or_else(|| panic!("no {} row of {name}", format.name()));
    match row.outcome {
        Measured::Ran { cus, .. } => cus,
        Measured::CannotRun(ref why) => panic!("{name} {}: {why}", format.name()),
    }
}

#[test]
fn every_instruction_and_event_has_its_moves_from_todays_anchor_path() {
    let run = support::run_token_example();
    for (site, today, names) in [
        (
            Site::Instruction,
            RowFormat::Anchor1Instruction,
            &["set_account", "transfer_checked", "close"][..],
        ),
        (Site::Event, RowFormat::Anchor1Emit, &["TokenAccount"][..]),
    ] {
        let all = moves::of_site(&run.program, &run.rows, site);
        let listed: Vec<&str> = all.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(listed, names);
        for m in &all {
            let today_cus = site_cus(&run, site, &m.name, today);
            assert_eq!(m.paths[0], (today, today_cus, 0));
            let mut last = 0;
            for &(format, cus, change) in &m.paths[1..] {
                assert_ne!(format, RowFormat::Floor, "the floor is no path");
                assert_eq!(cus, site_cus(&run, site, &m.name, format));
                assert_eq!(change, cus as i64 - today_cus as i64);
                assert!(cus >= last, "cheapest first: {:?}", m.paths);
                last = cus;
            }
            // Every measured pinocchio format is among them.
            assert!(m.paths.iter().any(|p| p.0 == RowFormat::Borsh), "{m:?}");
        }
    }
    // `emit_cpi!` is one of the event's moves, and dearer than `emit!`.
    let event = &moves::of_site(&run.program, &run.rows, Site::Event)[0];
    let cpi = event
        .paths
        .iter()
        .find(|p| p.0 == RowFormat::Anchor1EmitCpi)
        .expect("an emit_cpi! path");
    assert!(cpi.2 > 0, "{:?}", event.paths);
    assert!(
        run.summary.contains("### Events (today: `emit!`"),
        "{}",
        run.summary
    );
}

#[test]
fn the_moves_table_starts_at_todays_path_and_counts_each_change_from_it() {
    let run = run_defaults("token.json");
    let all = moves::of(&run.program, &run.rows, &Default::default());
    let [token] = &all[..] else {
        panic!("one account, one table: {all:?}")
    };
    assert_eq!(token.today, RowFormat::Anchor1AccountLoader);
    assert_eq!(token.paths[0].format, token.today);
    let today = support::cus(&run, token.today, "full");
    assert_eq!(token.paths[0].cus[0], Some(today));
    let mut last = 0;
    for path in &token.paths[1..] {
        let full = support::cus(&run, path.format, "full");
        assert_eq!(path.cus[0], Some(full), "{}", path.format.name());
        assert_eq!(path.change, Some(full as i64 - today as i64));
        assert!(full >= last, "cheapest first: {:?}", token.paths);
        last = full;
        assert_eq!(path.bytes, 168);
        // The rent-exempt minimum: (128 + bytes) x 3,480 lamports a
        // byte-year x 2 years (solana-rent's defaults).
        assert_eq!(path.rent, (128 + 168) * 3480 * 2);
    }
    // Every pinocchio format that runs the account is an alternative.
    for format in [RowFormat::Bytemuck, RowFormat::Zerocopy, RowFormat::Walk] {
        assert!(token.paths.iter().any(|p| p.format == format), "{format:?}");
    }
    // The token record's padding is explicit (`_padding: [u8; 7]`): none
    // to remove.
    assert_eq!(token.reorder, None);
    let summary = &run.summary;
    assert!(
        summary.contains("## What each move would save"),
        "{summary}"
    );
    // Its `bytemuck` path names the Steel and star_frame account types
    // that run the same cast.
    assert!(
        summary.contains(&moves::bytemuck_in_frameworks()),
        "{summary}"
    );
    assert!(
        summary.contains(&format!(
            "| anchor1_account_loader | {today} | {} | {} | today | 168 | {} |",
            support::cus(&run, token.today, "read"),
            support::cus(&run, token.today, "update"),
            (128 + 168) * 3480 * 2
        )),
        "{summary}"
    );
}

#[test]
fn a_borsh_account_moves_to_lazy_account_and_to_account_loader() {
    let run = run_defaults("token_borsh.json");
    let all = moves::of(&run.program, &run.rows, &Default::default());
    let [token] = &all[..] else {
        panic!("one account, one table: {all:?}")
    };
    assert_eq!(token.today, RowFormat::Anchor1Account);
    for format in [
        RowFormat::Anchor1LazyAccount,
        RowFormat::Anchor1AccountLoader,
    ] {
        let path = token
            .paths
            .iter()
            .find(|p| p.format == format)
            .unwrap_or_else(|| panic!("no {} move: {:?}", format.name(), token.paths));
        let full = support::cus(&run, format, "full");
        assert_eq!(path.cus[0], Some(full));
        assert_eq!(
            path.change,
            Some(full as i64 - support::cus(&run, token.today, "full") as i64)
        );
        // The token record's fields are in `repr(C)` order with their
        // padding written out: the zero-copy layout is borsh's 160 bytes.
        assert_eq!(path.bytes, 168);
    }
    // `LazyAccount<T>` decodes the one field `read` needs, so it reads
    // for less than `Account<T>`, which decodes them all; the loader's
    // cast is cheaper still.
    let read = |format| support::cus(&run, format, "read");
    assert!(read(RowFormat::Anchor1LazyAccount) < read(RowFormat::Anchor1Account));
    assert!(read(RowFormat::Anchor1AccountLoader) < read(RowFormat::Anchor1LazyAccount));
}

#[test]
fn lazy_account_is_refused_where_anchor_lang_would_panic() {
    // `Pool.config` is a struct of two fields, `Metadata.key` a fieldless
    // enum: anchor-lang sizes either from an empty buffer and panics. The
    // refusal is the account's, whatever the run reads and updates: the
    // metadata IDL's is the example's run.
    for (file, run, account, field) in [
        (
            "paths.json",
            run_defaults("paths.json"),
            "Pool",
            "field `config` is fixed-size and holds the struct",
        ),
        (
            "metadata.json",
            support::run_metadata_example(),
            "Metadata",
            "field `key` is fixed-size and holds the fieldless enum",
        ),
    ] {
        let line = run
            .summary
            .lines()
            .find(|l| l.starts_with("No `anchor1_lazy_account` row") && l.contains(field))
            .unwrap_or_else(|| panic!("{file}: no refusal of {field}:\n{}", run.summary));
        assert!(
            line.contains("sizes a fixed-size field from an empty buffer"),
            "{line}"
        );
        assert!(
            !run.rows
                .iter()
                .any(|r| r.format == RowFormat::Anchor1LazyAccount && r.name == account),
            "{file}"
        );
    }
}

#[test]
fn a_zero_copy_record_with_padding_is_reordered_and_saves_its_rent() {
    let field = |name: &str, ty: Ty| Field {
        name: name.into(),
        ty,
    };
    let int = |bytes| Ty::Int {
        bytes,
        signed: false,
    };
    // u8, u64, u16, u32: 1 + 7 (pad) + 8 + 2 + 2 (pad) + 4 = 24 bytes;
    // ordered u64, u32, u16, u8 it is 15, padded to 16.
    let record = Struct {
        name: "Padded".into(),
        ident: "Padded".into(),
        fields: vec![
            field("flag", int(1)),
            field("amount", int(8)),
            field("count", int(2)),
            field("slot", int(4)),
        ],
        packed: false,
    };
    let account = Account {
        name: "Padded".into(),
        ident: "padded".into(),
        discriminator: vec![9; 8],
        kind: Kind::ZeroCopy { packed: false },
        assumed: false,
        record,
    };
    let reorder = moves::reorder(&account).expect("the layout has padding");
    assert_eq!(reorder.fields, ["amount", "slot", "count", "flag"]);
    assert_eq!((reorder.bytes_now, reorder.bytes), (8 + 24, 8 + 16));
    assert_eq!(reorder.rent_saved, 8 * 3480 * 2);
    // Packed, or already in order: nothing to save.
    let packed = Account {
        kind: Kind::ZeroCopy { packed: true },
        ..account.clone()
    };
    assert_eq!(moves::reorder(&packed), None);
}

/// The release [`another_anchor_release_builds_the_same_programs_and_costs_what_the_matrix_says`]
/// builds on: `make anchor-copies`' first, which builds into the same
/// target folder, so in `make test`, which runs `make anchor-copies`
/// first, the generated `Account<T>` program's dependencies are already
/// built.
const ANOTHER_RELEASE: &str = benches::anchor_versions::copies::RELEASES[0];

#[test]
fn another_anchor_release_builds_the_same_programs_and_costs_what_the_matrix_says() {
    let release = idl::render::anchor1::release(ANOTHER_RELEASE).unwrap();
    let options = Options {
        anchor: Some(release),
        ..Options::default()
    };
    let run = support::run_idl_renamed("token_borsh.json", "release", &options);
    assert!(
        run.summary
            .contains(&format!("anchor-lang {ANOTHER_RELEASE}"))
            && run.summary.contains(&format!("(Anchor {ANOTHER_RELEASE}:")),
        "{}",
        run.summary
    );
    let results: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(run.dir.join("results.json")).unwrap())
            .unwrap();
    let records = results.as_array().expect("an array of records");
    let anchor_rows: Vec<_> = records
        .iter()
        .filter(|r| r["framework"] == "anchor1")
        .collect();
    assert!(!anchor_rows.is_empty());
    for r in &anchor_rows {
        assert_eq!(r["crate_version"], ANOTHER_RELEASE, "{r}");
    }
    // The hand-written programs on the same release, as the committed
    // matrix (`make anchor-versions`) measured them.
    let matrix: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(support::root().join("benches/anchor_versions.json")).unwrap(),
    )
    .unwrap();
    for (format, hand, operations) in [
        (
            RowFormat::Anchor1Account,
            "token/account",
            &[
                ("full", "full"),
                ("read", "read_owner"),
                ("update", "update_amount"),
            ][..],
        ),
        (
            RowFormat::Anchor1LazyAccount,
            "token/lazy_account",
            &[("read", "read_owner"), ("update", "update_amount")][..],
        ),
    ] {
        for &(operation, hand_operation) in operations {
            let ours = support::cus(&run, format, operation);
            let row = format!("anchor1/{hand}::{hand_operation}");
            let theirs = matrix["rows"][&row]["cells"][ANOTHER_RELEASE]
                .as_u64()
                .unwrap_or_else(|| panic!("the matrix has no {ANOTHER_RELEASE} cell of {row}"));
            let off = (ours as f64 - theirs as f64).abs() / theirs as f64;
            assert!(
                off <= TOLERANCE,
                "{} {operation}: {ours} CUs on {ANOTHER_RELEASE}, {row} {theirs}",
                format.name()
            );
        }
    }
    // The borsh record moved to `AccountLoader<T>` builds and runs too.
    support::cus(&run, RowFormat::Anchor1AccountLoader, "full");
}
