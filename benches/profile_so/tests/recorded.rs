//! `litesvm-recorder`: a team's LiteSVM tests writing Mollusk fixtures.
//! `make litesvm` replays every row of the benchmark with the recorder
//! installed (`target/benches/litesvm-fixtures/`); each fixture it wrote
//! replays in Mollusk with LiteSVM's result, CUs and accounts, and its
//! profile is its row's own, frame by frame.

use super::*;

/// Every row of the benchmark (each family's crates and every framework's
/// programs, the CPI into the published spl-token among them), as
/// `make litesvm` recorded it: one fixture per row, each replaying as
/// LiteSVM ran it (result, CUs, accounts), each profile a row fixture's
/// profile frame by frame.
#[test]
#[ignore = "every row: run by make test after make all and make litesvm"]
fn every_rows_recorded_fixture_replays_as_its_row() {
    let workspace = Workspace::current();
    let recorded_dir = workspace.benches_dir().join("litesvm-fixtures");
    assert!(
        recorded_dir.is_dir(),
        "{}: no recorded fixtures; run make litesvm",
        recorded_dir.display()
    );
    let scratch = tempfile::tempdir().unwrap();
    let (mut rows, mut recorded, mut cpis) = (0, 0, 0);
    for program in rows_programs(&workspace, scratch.path()) {
        let label = &program.label;
        // make litesvm's folder for this program, and the recorder's
        // folder for its id in it.
        let lite = recorded_dir.join(&program.litesvm_folder);
        let not_recorded = lite.join("not-recorded.txt");
        assert!(
            !not_recorded.exists(),
            "{label}: {}",
            fs::read_to_string(&not_recorded).unwrap_or_default()
        );
        let run = so::run(&options(&program.so, &lite.join(program.id.to_string()), 1))
            .unwrap_or_else(|e| panic!("{label} (recorded): {e}"));
        assert!(run.refused.is_empty(), "{label}: {:?}", run.refused);
        assert_eq!(
            run.profiled.len(),
            program.rows,
            "{label}: a fixture per row"
        );
        for p in &run.profiled {
            assert_eq!(
                p.replayed,
                Ok(()),
                "{label} {}: does not replay as LiteSVM ran it",
                p.fixture
            );
            assert!(
                program
                    .replayed
                    .profiled
                    .iter()
                    .any(|row| row.cus == p.cus && row.profile == p.profile),
                "{label} {}: {} CUs, no row's profile",
                p.fixture,
                p.cus
            );
            cpis += usize::from(
                p.profile
                    .stacks
                    .keys()
                    .any(|stack| stack.iter().any(|f| f.starts_with("syscall:sol_invoke"))),
            );
        }
        rows += program.rows;
        recorded += run.profiled.len();
    }
    eprintln!(
        "{recorded} recorded fixtures of {rows} rows, each its row's profile; {cpis} with a CPI"
    );
    assert!(recorded > 0 && cpis > 0);
}

/// The recorder's own tests (`benches/litesvm/src/recorder_tests.rs`,
/// run by make test before this) recorded two transactions of several
/// instructions on one account, the later ones given what the earlier
/// left: each fixture replays in Mollusk with LiteSVM's result, CUs and
/// accounts.
#[test]
#[ignore = "run by make test after the LiteSVM recorder's tests"]
fn a_transactions_later_instructions_replay_as_litesvm_ran_them() {
    let workspace = Workspace::current();
    let several = workspace.benches_dir().join("litesvm-recorder/several");
    let mut programs: Vec<PathBuf> = fs::read_dir(&several)
        .unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run the recorder's tests (make test)",
                several.display()
            )
        })
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.is_dir())
        .collect();
    assert_eq!(programs.len(), 1, "{programs:?}");
    let dir = programs.pop().unwrap();
    let so = workspace.root.join("target/deploy/metadata/bytemuck.so");
    let run = so::run(&options(&so, &dir, 1)).unwrap_or_else(|e| panic!("{e}"));
    assert!(run.refused.is_empty(), "{:?}", run.refused);
    assert_eq!(run.profiled.len(), 5);
    for p in &run.profiled {
        assert_eq!(p.replayed, Ok(()), "{}", p.fixture);
    }
    let errors: Vec<_> = run
        .profiled
        .iter()
        .filter_map(|p| p.error.as_deref())
        .collect();
    assert_eq!(errors, ["InvalidArgument"]);
}
