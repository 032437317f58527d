//! `make profile SO= BASE=`: two builds on the same fixtures. Known
//! answers from the token family, whose programs share one contract (so
//! one program's fixtures are every other's inputs): borsh against
//! bytemuck, their change the rows' difference, split by category and
//! frame; a behaviour change named; the gate; and bad input, each named.

use std::collections::BTreeMap;

use super::*;
use benches::{Case, Shape};
use profile_so::compare::{self, Matching, builds, gate::Limit};

/// The token family's `name` program in `shape`: its `.so`, its cases and
/// each operation's CUs, and the Mollusk that ran them.
fn token_program(
    name: &str,
    shape: Shape,
) -> (
    PathBuf,
    Vec<Case>,
    BTreeMap<String, u64>,
    mollusk_svm::Mollusk,
) {
    let workspace = Workspace::current();
    let (programs, mollusk) = workspace
        .load(Family::Token)
        .unwrap_or_else(|e| panic!("{e}"));
    let program = programs
        .iter()
        .find(|p| p.name == name && p.shape == shape)
        .unwrap_or_else(|| panic!("no token program {name} in {shape:?}"));
    let cases: Vec<Case> =
        families::cases(std::slice::from_ref(program)).unwrap_or_else(|e| panic!("{e}"));
    let rows = cases
        .iter()
        .map(|case| {
            let result = case.run(&mollusk).unwrap_or_else(|e| panic!("{e}"));
            (case.operation.clone(), result.compute_units_consumed)
        })
        .collect();
    (program.so_path.clone(), cases, rows, mollusk)
}

/// `so` copied into a folder of its own as `token.so` (both builds of a
/// program share a file name), with its `.so.debug` beside it as
/// `token.so.debug` where `dwarf`.
fn build_in(dir: &Path, so: &Path, dwarf: bool) -> PathBuf {
    fs::create_dir_all(dir).unwrap();
    let path = dir.join("token.so");
    fs::copy(so, &path).unwrap();
    if dwarf {
        let debug = debug_path(so);
        fs::copy(&debug, debug_path(&path))
            .unwrap_or_else(|e| panic!("{}: {e}; run make all", debug.display()));
    }
    path
}

/// borsh's token program's fixtures (`exact`), written into `dir`; its
/// `.so` and its rows.
fn borsh_token_fixtures(dir: &Path) -> (PathBuf, BTreeMap<String, u64>) {
    let (so, cases, rows, mollusk) = token_program("borsh", Shape::Exact);
    fixtures::write_cases(dir, &mollusk, &cases).unwrap_or_else(|e| panic!("{e}"));
    (so, rows)
}

/// borsh's token program's fixtures in a scratch folder, and its build
/// and bytemuck's there with their DWARF, compared on them (bytemuck the
/// new build, or borsh where `borsh_is_new`): the folder, the comparison
/// and each program's rows.
fn borsh_and_bytemuck(
    borsh_is_new: bool,
) -> (
    tempfile::TempDir,
    compare::Comparison,
    BTreeMap<String, u64>,
    BTreeMap<String, u64>,
) {
    let scratch = tempfile::tempdir().unwrap();
    let fixtures_dir = scratch.path().join("fixtures");
    fs::create_dir_all(&fixtures_dir).unwrap();
    let (borsh_so, borsh_rows) = borsh_token_fixtures(&fixtures_dir);
    let (bytemuck_so, _, bytemuck_rows, _) = token_program("bytemuck", Shape::Exact);
    let (new_so, base_so) = match borsh_is_new {
        true => (&borsh_so, &bytemuck_so),
        false => (&bytemuck_so, &borsh_so),
    };
    let base = build_in(&scratch.path().join("base"), base_so, true);
    let new = build_in(&scratch.path().join("new"), new_so, true);
    let diff =
        compare::run(&options(&new, &fixtures_dir, 1), &base).unwrap_or_else(|e| panic!("{e}"));
    (scratch, diff, borsh_rows, bytemuck_rows)
}

/// The operation a fixture of the token family calls, from its file name
/// (`borsh--read_owner.json`).
fn operation_of(fixture: &str) -> &str {
    fixture
        .trim_end_matches(".json")
        .rsplit("--")
        .next()
        .unwrap()
}

/// bytemuck against borsh, both with DWARF, on borsh's fixtures: every
/// call compared, none a behaviour change; each change is the two rows'
/// difference, its categories and frames each summing to it; `read_owner`'s
/// decode (borsh's owned decode gone) carries the most of it.
#[test]
#[ignore = "needs make all's .so.debug files; make test runs it"]
fn bytemuck_against_borsh_changes_by_the_rows_difference_and_decode_carries_it() {
    let (scratch, diff, borsh_rows, bytemuck_rows) = borsh_and_bytemuck(false);
    assert_eq!(diff.matching, Matching::Frames("dwarf"));
    assert!(diff.behaviour.is_empty(), "{:?}", diff.behaviour);
    assert!(diff.not_compared().is_empty());
    assert_eq!(diff.compared.len(), borsh_rows.len());
    for c in &diff.compared {
        let operation = operation_of(&c.fixture);
        assert_eq!(
            (c.cost.base_cus, c.cost.cus),
            (borsh_rows[operation], bytemuck_rows[operation]),
            "{}",
            c.fixture
        );
        assert_eq!(
            c.cost.categories_change.values().sum::<i64>(),
            c.cost.change(),
            "{}",
            c.fixture
        );
        let frames: i64 = c.cost.frames_change.iter().map(|f| f.change()).sum();
        assert_eq!(frames, c.cost.change(), "{}", c.fixture);
    }
    let read_owner = diff
        .compared
        .iter()
        .find(|c| operation_of(&c.fixture) == "read_owner")
        .unwrap();
    assert!(read_owner.cost.change() < 0, "{read_owner:?}");
    let (largest, change) = read_owner
        .cost
        .categories_change
        .iter()
        .max_by_key(|(_, change)| change.abs())
        .unwrap();
    assert_eq!(
        (largest.as_str(), *change < 0),
        ("decode", true),
        "{read_owner:?}"
    );
    // borsh's decode frames are gone from the new build.
    assert!(
        read_owner
            .cost
            .frames_change
            .iter()
            .any(|f| f.category == "decode"
                && f.base > 0
                && f.new == 0
                && f.frame.contains("deserialize")),
        "{:?}",
        read_owner.cost.frames_change
    );
    // The line a reviewer reads names the instruction, the change and
    // decode's share with its top frame.
    let line = builds::headline(read_owner);
    assert!(
        line.starts_with(&format!("`0x01`: {} CUs (", read_owner.cost.change()))
            && line.contains(&format!("decode {change} (`")),
        "{line}"
    );

    // Written out: summary.md, results.json, a differential flamegraph per
    // fixture.
    let out = scratch.path().join("out");
    compare::report::write(&out, &diff, Some(Limit::Cus(0))).unwrap();
    let results: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(out.join("results.json")).unwrap()).unwrap();
    assert_eq!(results["matching"], "dwarf");
    let records = results["records"].as_array().unwrap();
    assert_eq!(records.len(), diff.compared.len());
    for record in records {
        let change = record["change"].as_i64().unwrap();
        assert_eq!(
            record["cus"].as_i64().unwrap() - record["base_cus"].as_i64().unwrap(),
            change
        );
        let categories: i64 = record["categories_change"]
            .as_object()
            .unwrap()
            .values()
            .map(|v| v.as_i64().unwrap())
            .sum();
        assert_eq!(categories, change);
        let svg = fs::read_to_string(out.join(record["flamegraph"].as_str().unwrap())).unwrap();
        assert!(svg.contains("<svg") && svg.contains("fewer"), "{record}");
    }
    let folded = fs::read_to_string(out.join("borsh--read_owner.diff.folded")).unwrap();
    let (mut base_total, mut new_total) = (0, 0);
    for line in folded.lines() {
        let mut fields = line.rsplitn(3, ' ');
        new_total += fields.next().unwrap().parse::<u64>().unwrap();
        base_total += fields.next().unwrap().parse::<u64>().unwrap();
    }
    assert_eq!(
        (base_total, new_total),
        (read_owner.cost.base_cus, read_owner.cost.cus)
    );
    let summary = fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(summary.contains(&format!("- {line}\n")), "{summary}");
    // Every change here is a saving: a gate at 0 CUs lets all through.
    assert!(
        summary.contains("- MAX_INCREASE=0 CUs: no call past it"),
        "{summary}"
    );

    // The base stripped (its DWARF gone): no frames, the totals the same,
    // and the categories both namings allow, the rest in one line; the
    // summary says which and why.
    let (base_so, ..) = token_program("borsh", Shape::Exact);
    let stripped = build_in(&scratch.path().join("stripped"), &base_so, false);
    let new = scratch.path().join("new/token.so");
    let apart = compare::run(
        &options(&new, &scratch.path().join("fixtures"), 1),
        &stripped,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        apart.matching,
        Matching::Totals("the new build is named by dwarf, the base by addresses; give both the same way (both with DWARF, or both with a symbol table)".into())
    );
    for (c, same) in apart.compared.iter().zip(&diff.compared) {
        assert_eq!(
            (c.cost.base_cus, c.cost.cus),
            (same.cost.base_cus, same.cost.cus)
        );
        assert!(c.cost.frames_change.is_empty());
        assert_eq!(
            c.cost.categories_change.values().sum::<i64>(),
            c.cost.change()
        );
        assert!(
            c.cost
                .categories_change
                .contains_key(builds::CODE_NAMED_APART),
            "{c:?}"
        );
    }
    let summary = compare::report::markdown(&apart, None);
    assert!(
        summary.contains("- totals and categories only, no frames: the new build is named by dwarf, the base by addresses")
            && !summary.contains("## Frames whose self CUs changed most"),
        "{summary}"
    );
}

/// The same two builds the other way round (borsh as the new build):
/// every call costs more, and the gate fails on each past the limit,
/// naming its instruction and top frames, and passes above the largest.
#[test]
#[ignore = "needs make all's .so.debug files; make test runs it"]
fn the_gate_fails_past_max_increase_and_passes_under_it() {
    let (_scratch, diff, borsh_rows, bytemuck_rows) = borsh_and_bytemuck(true);
    let changes: Vec<i64> = borsh_rows
        .iter()
        .map(|(op, cus)| *cus as i64 - bytemuck_rows[op] as i64)
        .collect();
    let (least, most) = (
        *changes.iter().min().unwrap(),
        *changes.iter().max().unwrap(),
    );
    assert!(least > 0, "{changes:?}");
    // Under the smallest change: every call is past it, each named.
    let over = compare::gate::over(Limit::Cus(least as u64 - 1), &diff.compared);
    assert_eq!(over.len(), diff.compared.len(), "{over:?}");
    let read_owner = over
        .iter()
        .find(|o| o.starts_with("`0x01` (borsh--read_owner.json): +"))
        .unwrap();
    assert!(
        read_owner.contains("past MAX_INCREASE=") && read_owner.contains("; top frames: `"),
        "{read_owner}"
    );
    // At the largest: none.
    assert!(compare::gate::over(Limit::Cus(most as u64), &diff.compared).is_empty());
    // As a percentage: read_owner's own.
    let c = diff
        .compared
        .iter()
        .find(|c| operation_of(&c.fixture) == "read_owner")
        .unwrap();
    let percent = 100.0 * c.cost.change() as f64 / c.cost.base_cus as f64;
    assert!(!Limit::Percent(percent.ceil()).exceeded_by(c));
    assert!(Limit::Percent(percent.floor() - 1.0).exceeded_by(c));
}

/// One build answers a fixture differently (the `unchecked` shape accepts
/// a 170-byte account the `exact` one refuses): a behaviour change, named
/// with what differs, kept out of the costs; the other fixtures compared.
#[test]
fn a_behaviour_change_is_named_and_kept_out_of_the_costs() {
    let scratch = tempfile::tempdir().unwrap();
    let fixtures_dir = scratch.path().join("fixtures");
    fs::create_dir_all(&fixtures_dir).unwrap();
    let (so, cases, _, mollusk) = token_program("borsh", Shape::Exact);
    fixtures::write_cases(&fixtures_dir, &mollusk, &cases).unwrap_or_else(|e| panic!("{e}"));
    // read_owner on an account 10 bytes longer than the record.
    let case = cases.iter().find(|c| c.operation == "read_owner").unwrap();
    let mut accounts = case.accounts.clone();
    accounts[0].1.data.extend_from_slice(&[0; 10]);
    let result = mollusk.process_instruction(&case.instruction, &accounts);
    assert!(
        result.program_result.is_err(),
        "exact refuses a longer account"
    );
    fixtures::write_fixture(
        &fixtures_dir,
        "long_account",
        &mollusk,
        (&case.instruction, &accounts),
        &result,
    )
    .unwrap();
    let (unchecked, _, _, _) = token_program("borsh", Shape::Unchecked);
    let diff =
        compare::run(&options(&unchecked, &fixtures_dir, 1), &so).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(diff.behaviour.len(), 1, "{:?}", diff.behaviour);
    let change = &diff.behaviour[0];
    assert_eq!(change.fixture, "long_account.json");
    assert_eq!(
        change.differs,
        "the result is success, the base build gives Failure(InvalidAccountData)"
    );
    assert_eq!(diff.compared.len(), cases.len());
    assert!(
        diff.compared
            .iter()
            .all(|c| c.fixture != "long_account.json")
    );
    let summary = compare::report::markdown(&diff, None);
    assert!(
        summary.contains(
            "| `long_account.json` | `0x01` | the result is success, the base build gives Failure(InvalidAccountData) |"
        ),
        "{summary}"
    );
}

/// BASE missing, not an SBF program, or the very file SO is; fixtures of
/// another program; a damaged fixture beside good ones: each named, the
/// rest compared, no panic.
#[test]
fn bad_input_is_named() {
    let scratch = tempfile::tempdir().unwrap();
    let fixtures_dir = scratch.path().join("fixtures");
    fs::create_dir_all(&fixtures_dir).unwrap();
    let (so, _) = borsh_token_fixtures(&fixtures_dir);
    let (bytemuck, _, _, _) = token_program("bytemuck", Shape::Exact);
    let opts = options(&bytemuck, &fixtures_dir, 1);
    let missing = scratch.path().join("missing.so");
    let error = compare::run(&opts, &missing).err().unwrap();
    assert!(
        error.starts_with(&format!("BASE={}: ", missing.display())),
        "{error}"
    );
    let text = scratch.path().join("text.so");
    fs::write(&text, "not a program").unwrap();
    let error = compare::run(&opts, &text).err().unwrap();
    assert!(
        error.starts_with(&format!(
            "BASE={}: not an SBF program: no ELF header",
            text.display()
        )),
        "{error}"
    );
    let error = compare::run(&opts, &bytemuck).err().unwrap();
    assert!(
        error.contains("is SO=") && error.contains("give the build before the change as BASE"),
        "{error}"
    );

    // A damaged file among the fixtures: named once, the others compared.
    fs::write(fixtures_dir.join("damaged.json"), "{ not json").unwrap();
    let diff = compare::run(&opts, &so).unwrap_or_else(|e| panic!("{e}"));
    let not_compared = diff.not_compared();
    assert_eq!(not_compared.len(), 1, "{not_compared:?}");
    assert_eq!(not_compared[0].fixture, "damaged.json");
    assert!(
        not_compared[0]
            .reason
            .starts_with("not a JSON InstrFixture: "),
        "{not_compared:?}"
    );
    assert_eq!(diff.compared.len(), 3);

    // Two token builds on the message family's fixtures: neither replays
    // any of them as recorded.
    let message_dir = scratch.path().join("message");
    fs::create_dir_all(&message_dir).unwrap();
    let workspace = Workspace::current();
    let (programs, mollusk) = workspace
        .load(Family::Message)
        .unwrap_or_else(|e| panic!("{e}"));
    let borsh_message: Vec<Case> = families::cases(&programs)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .filter(|c| c.name == "borsh")
        .take(3)
        .collect();
    fixtures::write_cases(&message_dir, &mollusk, &borsh_message).unwrap_or_else(|e| panic!("{e}"));
    let error = compare::run(&options(&bytemuck, &message_dir, 1), &so)
        .err()
        .unwrap();
    assert!(
        error.contains("replays any of the 3 fixtures with the result and accounts it recorded")
            && error.contains("are these another program's fixtures?"),
        "{error}"
    );
}

/// The CUs of `profile`'s stacks with a frame whose function is `name`
/// (what runs under it, inclusive).
fn cus_under(profile: &benches::profile::Profile, name: &str) -> u64 {
    use benches::profile::categories::function_name;
    profile
        .stacks
        .iter()
        .filter(|(stack, _)| stack.iter().any(|f| function_name(f) == name))
        .map(|(_, cus)| cus)
        .sum()
}

/// Anchor 1.x's `Account<T>` token program on anchor-lang 0.32.2 and on
/// 1.0.3 (`make anchor-copies`: the same source, line tables in each
/// `.so`), on its fixtures: `update_amount`'s change is within 10% of the
/// release matrix's step (benches/anchor_versions.json), and most of it
/// is under the duplicate-mutable check's set `insert`, which 1.0 added.
#[test]
#[ignore = "needs make anchor-copies; make test runs it"]
fn anchor_0_32_to_1_0_is_the_matrix_step_and_mostly_the_duplicate_mutable_check() {
    use benches::anchor_versions::{RELEASES, copies};
    let workspace = Workspace::current();
    let scratch = tempfile::tempdir().unwrap();
    let fixtures_dir = scratch.path().join("fixtures");
    fs::create_dir_all(&fixtures_dir).unwrap();
    program_fixtures(
        &workspace,
        benches::frameworks::anchor1::ORACLE.framework(),
        "token/account",
        &fixtures_dir,
    );
    let build = |version: &str| {
        let release = RELEASES.iter().find(|r| r.version == version).unwrap();
        let built = copies::path(&workspace.root, release, "token/account");
        let dir = scratch.path().join(version);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("account.so");
        for (from, to) in [
            (built.clone(), path.clone()),
            (debug_path(&built), debug_path(&path)),
        ] {
            fs::copy(&from, &to)
                .unwrap_or_else(|e| panic!("{}: {e}; run make anchor-copies", from.display()));
        }
        path
    };
    let (base, new) = (build("0.32.2"), build("1.0.3"));
    let diff =
        compare::run(&options(&new, &fixtures_dir, 8), &base).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(diff.matching, Matching::Frames("dwarf"));
    assert!(diff.behaviour.is_empty(), "{:?}", diff.behaviour);
    let matrix: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(workspace.root.join("benches/anchor_versions.json")).unwrap(),
    )
    .unwrap();
    let cells = &matrix["rows"]["anchor1/token/account::update_amount"]["cells"];
    let step = cells["1.0.3"].as_i64().unwrap() - cells["0.32.2"].as_i64().unwrap();
    let c = diff
        .compared
        .iter()
        .find(|c| c.fixture.contains("update_amount"))
        .unwrap();
    assert!(
        (c.cost.change() - step).abs() * 10 <= step.abs(),
        "update_amount changed by {}; the matrix's step from 0.32.2 to 1.0.3 is {step}",
        c.cost.change()
    );
    let profile_of = |run: &so::Run| {
        run.profiled
            .iter()
            .find(|p| p.fixture == c.fixture)
            .unwrap()
            .profile
            .clone()
    };
    let under = cus_under(&profile_of(&diff.new), "insert") as i64
        - cus_under(&profile_of(&diff.base), "insert") as i64;
    assert!(
        2 * under > c.cost.change(),
        "the set's insert carries {under} of update_amount's {} CUs",
        c.cost.change()
    );
    assert_eq!(
        c.cost.categories_change.values().sum::<i64>(),
        c.cost.change()
    );
}
