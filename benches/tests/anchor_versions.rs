//! The committed release matrix (benches/anchor_versions.json) is this
//! tree's: its pinned release's column and its Anchor 2 column are the
//! CUs `make bench` measures now (and the pinned release's `.so` sizes),
//! every release of the matrix has a column, and every empty cell says why.

use benches::{
    Workspace,
    anchor_versions::{
        ANCHOR2, PINNED, RELEASES, anchor2_row,
        matrix::{Cell, Matrix},
    },
    bench,
};

fn committed() -> Matrix {
    let workspace = Workspace::current();
    Matrix::read(&workspace.root.join(Matrix::COMMITTED)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_pinned_and_anchor2_columns_are_this_trees_run() {
    // The run's reports go to a scratch folder: this checkout's stay the
    // user's.
    let scratch = tempfile::tempdir().unwrap();
    let workspace = Workspace::current().with_benches_dir(scratch.path());
    let run = bench::run(&workspace).unwrap_or_else(|e| panic!("{e}"));
    let results = run.results_json();
    let records = benches::report::docs::records(&results);
    let matrix = committed();
    let mut differs = Vec::new();
    for (name, row) in &matrix.rows {
        for (column, row_name) in [(PINNED, Some(name.clone())), (ANCHOR2, anchor2_row(name))] {
            let Some(row_name) = row_name else { continue };
            let committed = row.cells.get(column).and_then(|c| c.cus());
            let measured = records.get(&row_name).and_then(|r| r["cus"].as_u64());
            if committed != measured {
                differs.push(format!(
                    "{name} ({column}, {row_name}): committed {committed:?}, this tree {measured:?}"
                ));
            }
        }
    }
    for column in &matrix.releases {
        for (label, cell) in &column.programs {
            let program = format!("{label}::");
            // The older releases' programs are built by `make
            // anchor-versions` alone; Anchor 2's are `make all`'s.
            let row = match column.release.as_str() {
                PINNED => Some(program),
                ANCHOR2 => anchor2_row(&program),
                _ => None,
            };
            let Some(program) = row else { continue };
            let measured = records
                .iter()
                .find(|(row, _)| row.starts_with(&program))
                .and_then(|(_, r)| r["so_bytes"].as_u64());
            if cell.cus() != measured {
                differs.push(format!(
                    "{label} ({}): committed {:?} bytes, this tree {measured:?}",
                    column.release,
                    cell.cus()
                ));
            }
        }
    }
    assert!(
        differs.is_empty(),
        "benches/anchor_versions.json is not this tree's; run `make anchor-versions-baseline` and commit it:\n  {}",
        differs.join("\n  ")
    );
}

#[test]
fn every_release_has_a_column_and_every_empty_cell_a_reason() {
    let matrix = committed();
    let names: Vec<&str> = matrix.names();
    let expected: Vec<&str> = RELEASES
        .iter()
        .map(|r| r.version)
        .chain([ANCHOR2])
        .collect();
    assert_eq!(names, expected);
    let measured = matrix
        .releases
        .iter()
        .filter(|c| c.release != ANCHOR2)
        .filter(|c| c.programs.values().any(|p| p.cus().is_some()))
        .count();
    assert!(measured >= 5, "{measured} releases measured");
    for row in matrix.rows.values() {
        for release in &RELEASES {
            let cell = row.cells.get(release.version);
            let program = format!("anchor1/{}", row.program);
            let built = matrix
                .releases
                .iter()
                .find(|c| c.release == release.version)
                .unwrap()
                .programs
                .get(&program);
            match (cell, built) {
                (Some(Cell::Cus(_)), _) => {}
                (Some(Cell::Failed(why)), _) => assert!(
                    !why.trim().is_empty(),
                    "{program} on {}: an empty cell with no reason",
                    release.version
                ),
                (None, Some(built)) => assert!(
                    built.cus().is_none(),
                    "{program} built on {} but {} has no cell",
                    release.version,
                    row.operation
                ),
                (None, None) => panic!("{program} on {}: no cell and no build", release.version),
            }
        }
    }
}
