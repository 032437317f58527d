//! `ACCOUNTS=` and `CAPACITY=`: a variable account type sized at fixed
//! capacity from the accounts a team holds, in each JSON shape it has
//! them in, against known answers (the metadata family's own
//! fixed-capacity record, Squads' `Multisig` by hand); and bad input
//! named while the rest is sized.

use std::{fs, path::Path};

use base64::Engine as _;
use idl::{
    capacity::{self, Capacities, Choices, SetBy, Sized},
    input::{self, Assumptions, accounts},
    model::{self, Program},
};
use serde_json::json;
use solana_pubkey::Pubkey;

fn program(path: &Path) -> Program {
    let parsed = input::read(path).unwrap_or_else(|e| panic!("{e}"));
    model::resolve(&parsed, &Assumptions::default())
}

/// A multisig account as Squads v4 declares its `Multisig` (its fields
/// and types, as its published IDL lists them: Squads-Protocol/v4
/// `sdk/multisig/idl/squads_multisig_program.json` at `c14a6d607a4d`),
/// written here as a legacy Anchor IDL with that program's address.
pub(super) const MULTISIG: &str = r#"{
  "version": "0.1.0",
  "name": "multisig",
  "instructions": [],
  "accounts": [{
    "name": "Multisig",
    "type": {"kind": "struct", "fields": [
      {"name": "createKey", "type": "publicKey"},
      {"name": "configAuthority", "type": "publicKey"},
      {"name": "threshold", "type": "u16"},
      {"name": "timeLock", "type": "u32"},
      {"name": "transactionIndex", "type": "u64"},
      {"name": "staleTransactionIndex", "type": "u64"},
      {"name": "rentCollector", "type": {"option": "publicKey"}},
      {"name": "bump", "type": "u8"},
      {"name": "members", "type": {"vec": {"defined": "Member"}}}
    ]}
  }],
  "types": [
    {"name": "Member", "type": {"kind": "struct", "fields": [
      {"name": "key", "type": "publicKey"},
      {"name": "permissions", "type": {"defined": "Permissions"}}
    ]}},
    {"name": "Permissions", "type": {"kind": "struct", "fields": [
      {"name": "mask", "type": "u8"}
    ]}}
  ],
  "metadata": {"address": "SQDS4ep65T869zMMBKyuUq6aD6EgTu8psMjkvj52pCf", "origin": "anchor"}
}"#;

/// A Squads multisig of `members` members (its fields as [`MULTISIG`]
/// declares them), no rent collector.
pub(super) fn multisig_data(discriminator: &[u8], members: u8) -> Vec<u8> {
    let mut data = discriminator.to_vec();
    data.extend([1; 32]); // create_key
    data.extend([0; 32]); // config_authority
    data.extend(2u16.to_le_bytes()); // threshold
    data.extend(0u32.to_le_bytes()); // time_lock
    data.extend(7u64.to_le_bytes()); // transaction_index
    data.extend(0u64.to_le_bytes()); // stale_transaction_index
    data.push(0); // rent_collector: None
    data.push(255); // bump
    data.extend(u32::from(members).to_le_bytes());
    for m in 0..members {
        data.extend([m + 10; 32]);
        data.push(7); // permissions
    }
    data
}

fn multisig_program() -> Program {
    let parsed =
        input::parse("multisig.json", "multisig", MULTISIG).unwrap_or_else(|e| panic!("{e}"));
    model::resolve(&parsed, &Assumptions::default())
}

fn root() -> std::path::PathBuf {
    super::support::root()
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn sized<'a>(capacities: &'a Capacities, account: &str) -> &'a Sized {
    capacities
        .types
        .iter()
        .find(|t| t.account == account)
        .unwrap_or_else(|| panic!("{account} not sized: {capacities:?}"))
}

fn capacity_of(sized: &Sized, field: &str) -> Option<(usize, SetBy)> {
    sized
        .fields
        .iter()
        .find(|f| f.variable.name == field)
        .unwrap_or_else(|| panic!("{field}: no such variable field in {sized:?}"))
        .capacity
}

fn size(program: &Program, dir: Option<&Path>, capacity: &str) -> Capacities {
    let held = dir.map(|d| accounts::read(d).unwrap_or_else(|e| panic!("{e}")));
    let address = program.address.as_deref().and_then(|a| a.parse().ok());
    let choices = Choices::parse(capacity).unwrap_or_else(|e| panic!("{e}"));
    capacity::size(program, address, held.as_ref(), &choices)
}

/// The metadata family's record as an IDL (`metadata.json`), its
/// `typical` instance as the one account held: each variable field's
/// capacity is that account's length; at Metaplex's capacities (the
/// family's `FixedCapacity`: 32, 10, 200, 5 creators) the record is the
/// family's 586 bytes and one: the family folds `creators`' option into
/// its count, where the layout sized here keeps the option's flag.
#[test]
fn the_metadata_record_sizes_as_the_familys_fixed_capacity_record() {
    let program = program(&root().join("benches/idl/idls/metadata.json"));
    let typical = benches::metadata::instance("typical");
    let borsh = common::metadata::host_format("borsh").unwrap();
    let mut data = program.account("Metadata").unwrap().discriminator.clone();
    data.extend((borsh.encode)(&typical));
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("typical.json"),
        json!({"pubkey": "M1", "account": {"owner": program.address, "data": [b64(&data), "base64"]}})
            .to_string(),
    )
    .unwrap();

    let seen = size(&program, Some(dir.path()), "");
    assert!(seen.notes.is_empty(), "{:?}", seen.notes);
    let metadata = sized(&seen, "Metadata");
    assert_eq!(metadata.held, [data.len()]);
    assert_eq!(metadata.fit, 1);
    assert_eq!(
        capacity_of(metadata, "name"),
        Some((typical.name.len(), SetBy::Seen))
    );
    assert_eq!(
        capacity_of(metadata, "uri"),
        Some((typical.uri.len(), SetBy::Seen))
    );
    let creators = typical.creators.as_ref().map_or(0, Vec::len);
    assert_eq!(
        capacity_of(metadata, "creators"),
        Some((creators, SetBy::Seen))
    );

    let metaplex = size(
        &program,
        Some(dir.path()),
        "Metadata.name=32,Metadata.symbol=10,Metadata.uri=200,Metadata.creators=5",
    );
    let metadata = sized(&metaplex, "Metadata");
    assert_eq!(capacity_of(metadata, "name"), Some((32, SetBy::Given)));
    assert_eq!(
        metadata.record_len,
        Some(common::metadata::FIXED_CAPACITY_LEN + 1)
    );
    assert_eq!(metadata.account_len, Some(8 + 586 + 1));
    assert_eq!(metadata.fit, 1);
    let section = capacity::report::section(&metaplex);
    assert!(
        section.contains("At these capacities the record is 587 bytes, the account 595"),
        "{section}"
    );
}

/// Squads' `Multisig` (a legacy Anchor IDL, [`MULTISIG`]): its member
/// list sized from accounts in every accepted shape (the CLI's
/// JSON, `getAccountInfo`, `getProgramAccounts` with zstd, a Mollusk
/// fixture), each account once; the bytes known by hand.
#[test]
fn squads_multisig_members_sized_from_every_shape() {
    let program = multisig_program();
    let squads: Pubkey = program.address.as_deref().unwrap().parse().unwrap();
    let discriminator = program.account("Multisig").unwrap().discriminator.clone();
    let multisig = |members: u8| multisig_data(&discriminator, members);
    let account = |data: &[u8]| json!({"owner": squads.to_string(), "lamports": 1, "data": [b64(data), "base64"]});
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, value: serde_json::Value| {
        let path = dir.path().join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, value.to_string()).unwrap();
    };
    write(
        "cli.json",
        json!({"pubkey": "S1", "account": account(&multisig(3))}),
    );
    write(
        "info.json",
        json!({"jsonrpc": "2.0", "result": {"context": {"slot": 9}, "value": account(&multisig(5))}, "id": 1}),
    );
    let zstd = zstd::encode_all(multisig(10).as_slice(), 3).unwrap();
    write(
        "program.json",
        json!({"jsonrpc": "2.0", "id": 1, "result": [
            {"pubkey": "S2", "account": {"owner": squads.to_string(), "data": [b64(&zstd), "base64+zstd"]}},
            {"pubkey": "S1", "account": account(&multisig(3))},
        ]}),
    );
    // A fixture: the multisig and the instruction's payer (no account of
    // the IDL: counted, not named).
    write(
        "fixtures/propose.json",
        json!({"input": {"accounts": [
            {"address": vec![4u8; 32], "owner": squads.to_bytes(), "data": multisig(4)},
            {"address": vec![5u8; 32], "owner": vec![0u8; 32], "data": []},
        ]}}),
    );
    let capacities = size(&program, Some(dir.path()), "");
    let multisig_sized = sized(&capacities, "Multisig");
    // S1 is in two files with the same bytes: one account.
    assert_eq!(multisig_sized.held.len(), 4);
    assert_eq!(
        capacity_of(multisig_sized, "members"),
        Some((10, SetBy::Seen))
    );
    let members = multisig_sized
        .fields
        .iter()
        .find(|f| f.variable.name == "members")
        .unwrap();
    assert_eq!((members.largest, members.p99), (Some(10), Some(10)));
    // 32 + 32 + 2 + 4 + 8 + 8 + (1 + 32) + 1, then a one-byte count and
    // ten members of 33 bytes.
    assert_eq!(multisig_sized.record_len, Some(120 + 1 + 10 * 33));
    assert_eq!(multisig_sized.account_len, Some(8 + 451));
    assert_eq!(multisig_sized.fit, 4);
    assert_eq!(
        capacities.notes,
        [
            "1 of the fixtures' accounts are none of the IDL's account types (an instruction's payer, programs, sysvars): left out"
        ]
    );

    // A capacity below a length seen: named, and the fit counted.
    let tight = size(&program, Some(dir.path()), "Multisig.members=4");
    assert_eq!(sized(&tight, "Multisig").fit, 2);
    assert!(
        tight.notes.iter().any(|n| n
            == "CAPACITY=Multisig.members=4 is below the longest seen (10 items): 2 of 4 accounts would not fit"),
        "{:?}",
        tight.notes
    );
}

/// Bad input, each named while the rest is sized: an account another
/// program owns, one of no type of the IDL, data shorter than its
/// layout, base64 that does not decode, and `CAPACITY=` naming no
/// variable field or no type.
#[test]
fn bad_accounts_and_capacities_are_named_and_the_rest_sized() {
    let program = multisig_program();
    let squads = program.address.clone().unwrap();
    let discriminator = program.account("Multisig").unwrap().discriminator.clone();
    let dir = tempfile::tempdir().unwrap();
    let dump = |name: &str, owner: &str, data: &str| {
        fs::write(
            dir.path().join(name),
            json!({"pubkey": name, "account": {"owner": owner, "data": [data, "base64"]}})
                .to_string(),
        )
        .unwrap();
    };
    let mut short = discriminator.clone();
    short.extend([1; 40]);
    dump("short.json", &squads, &b64(&short));
    dump(
        "other.json",
        &Pubkey::new_from_array([3; 32]).to_string(),
        &b64(&short),
    );
    dump("untyped.json", &squads, &b64(&[1, 2, 3, 4, 5, 6, 7, 8, 9]));
    dump("garbled.json", &squads, "%%%");
    let capacities = size(
        &program,
        Some(dir.path()),
        "Multisig.threshold=4,Multisig.nothing=2,Nobody.members=3,Multisig.members=6",
    );
    let notes = capacities.notes.join("\n");
    let other = format!(
        "other.json: other.json: owned by {}, not this program ({squads})",
        Pubkey::new_from_array([3; 32])
    );
    for expected in [
        other.as_str(),
        "garbled.json: garbled.json: `data` is not base64",
        "short.json: short.json: not a `Multisig` as the IDL lays it out (at byte 40: `Multisig.configAuthority`: 32 bytes past the data's end (48))",
        "untyped.json: untyped.json: its data (9 bytes, starting [1, 2, 3, 4, 5, 6, 7, 8]) starts with no account type's discriminator in the IDL",
        "CAPACITY=Multisig.threshold: `threshold` is not variable (its size is fixed already); `Multisig`'s variable fields: members",
        "CAPACITY=Multisig.nothing: `nothing` is no field of it",
        "CAPACITY=Nobody.members: the IDL has no account type `Nobody`",
    ] {
        assert!(notes.contains(expected), "{expected}\nnot in:\n{notes}");
    }
    // The rest is sized: the members' capacity as given, no account held.
    let multisig = sized(&capacities, "Multisig");
    assert_eq!(capacity_of(multisig, "members"), Some((6, SetBy::Given)));
    assert!(multisig.held.is_empty());
    assert_eq!(multisig.record_len, Some(120 + 1 + 6 * 33));

    // `CAPACITY=` that is not Type.field=N is refused before anything runs.
    let e = Choices::parse("Multisig.members").unwrap_err();
    assert!(e.contains("`Multisig.members` has no `=N`"), "{e}");
    let e = Choices::parse("members=3").unwrap_err();
    assert!(e.contains("names no field"), "{e}");
}

/// With neither `ACCOUNTS=` nor `CAPACITY=`, no capacity is sized and
/// the summary says how to get one.
#[test]
fn without_accounts_the_summary_says_how_to_size() {
    let program = program(&root().join("benches/idl/idls/metadata.json"));
    let capacities = size(&program, None, "");
    let metadata = sized(&capacities, "Metadata");
    assert!(metadata.record_len.is_none());
    let section = capacity::report::section(&capacities);
    assert!(
        section.contains("`Metadata` has variable fields")
            && section.contains("give `ACCOUNTS=<a folder of your accounts>`"),
        "{section}"
    );
}

/// A Codama IDL's variable account (`wire.codama.json`'s `table`, an
/// address lookup table's shape: its addresses run to the end of the
/// data) sized from a `getProgramAccounts` response with its context;
/// the bytes known by hand.
#[test]
fn a_codama_lookup_tables_addresses_sized_from_program_accounts() {
    let program = program(&root().join("benches/idl/idls/wire.codama.json"));
    let owner = program.address.clone().unwrap();
    let table = |addresses: usize| {
        let mut data = 1u32.to_le_bytes().to_vec(); // the discriminator field
        data.push(1); // authority: Some
        data.extend([9; 32]);
        data.extend(5u64.to_le_bytes()); // slot
        for a in 0..addresses {
            data.extend([a as u8; 32]);
        }
        data
    };
    let dir = tempfile::tempdir().unwrap();
    let listed: Vec<serde_json::Value> = [2, 30, 256]
        .iter()
        .enumerate()
        .map(|(i, &n)| json!({"pubkey": format!("T{i}"), "account": {"owner": owner, "data": [b64(&table(n)), "base64"]}}))
        .collect();
    fs::write(
        dir.path().join("tables.json"),
        json!({"jsonrpc": "2.0", "id": 1, "result": {"context": {"slot": 3}, "value": listed}})
            .to_string(),
    )
    .unwrap();
    let capacities = size(&program, Some(dir.path()), "");
    assert!(capacities.notes.is_empty(), "{:?}", capacities.notes);
    let sized = sized(&capacities, "table");
    assert_eq!(capacity_of(sized, "addresses"), Some((256, SetBy::Seen)));
    // (1 + 32) + 8, then a two-byte count (256 is past a byte's) and 256
    // addresses; the account's discriminator field first.
    assert_eq!(sized.record_len, Some(41 + 2 + 256 * 32));
    assert_eq!(sized.account_len, Some(4 + 41 + 2 + 256 * 32));
    assert_eq!((sized.fit, sized.held.len()), (3, 3));
}

/// The page shows a run's sizing under its records (its summary's
/// section, where the run wrote `capacities.json`), and nothing where it
/// did not size.
#[test]
fn the_page_shows_a_runs_sizing() {
    let benches = tempfile::tempdir().unwrap();
    let run = benches.path().join("idl/multisig");
    fs::create_dir_all(&run).unwrap();
    fs::write(run.join("results.json"), "[]").unwrap();
    let capacities = size(&multisig_program(), None, "Multisig.members=10");
    let summary = format!(
        "# multisig\n\nIts rows.\n{}\n## Hostile cases\n\nNone.\n",
        capacity::report::section(&capacities)
    );
    fs::write(run.join("summary.md"), summary).unwrap();
    let page = || {
        let path = benches::report::page::write(benches.path()).unwrap_or_else(|e| panic!("{e}"));
        fs::read_to_string(path).unwrap()
    };
    assert!(!page().contains("<div class=\"capacities\">"));
    fs::write(
        run.join("capacities.json"),
        capacity::report::json(&capacities).to_string(),
    )
    .unwrap();
    let html = page();
    assert!(html.contains("<div class=\"capacities\">"), "{html}");
    assert!(html.contains("<code>members</code>"), "{html}");
    assert!(
        html.contains("At these capacities the record is 451 bytes"),
        "{html}"
    );
    assert!(!html.contains("Hostile cases"), "{html}");
}
