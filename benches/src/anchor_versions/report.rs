//! The matrix as markdown (target/benches/anchor_versions.md, and the
//! blocks `docs/anchor-releases.md` quotes): each program x operation's CUs per
//! release with the change from the release before, the `.so` sizes, and
//! why a cell is empty.

use std::{collections::BTreeMap, path::Path};

use super::matrix::{self, Cell, Matrix, MatrixRow};

/// `941`, `952 (+11)`, `-` where the release has no cell.
fn cell_text(cell: Option<&Cell>, before: Option<u64>) -> String {
    match cell.and_then(Cell::cus) {
        None => "-".into(),
        Some(cus) => match before {
            Some(before) if before != cus => {
                format!("{cus} ({:+})", cus as i64 - before as i64)
            }
            Some(_) => format!("{cus} (=)"),
            None => cus.to_string(),
        },
    }
}

fn row_label(row: &MatrixRow) -> String {
    if row.group.is_empty() || row.group == "exact" {
        format!("{} | {}", row.program, row.operation)
    } else {
        format!("{} | {} / {}", row.program, row.operation, row.group)
    }
}

/// Rows are program x operation; each release's cell is its CUs and the
/// change from the nearest earlier release that has the cell.
pub fn cus_table(matrix: &Matrix) -> String {
    let names = matrix.names();
    let mut out = format!(
        "| program | operation | {} |\n|---|---|{}\n",
        names.join(" | "),
        "---:|".repeat(names.len())
    );
    for row in matrix.rows.values() {
        let mut before = None;
        let cells: Vec<String> = names
            .iter()
            .map(|name| {
                let cell = row.cells.get(*name);
                let text = cell_text(cell, before);
                if let Some(cus) = cell.and_then(Cell::cus) {
                    before = Some(cus);
                }
                text
            })
            .collect();
        out.push_str(&format!("| {} | {} |\n", row_label(row), cells.join(" | ")));
    }
    out
}

/// Each program's `.so` bytes per release (deploying one pays rent on
/// every byte), with the change from the release before.
pub fn size_table(matrix: &Matrix) -> String {
    let names = matrix.names();
    let mut labels: Vec<&String> = matrix
        .releases
        .iter()
        .flat_map(|c| c.programs.keys())
        .collect();
    labels.sort();
    labels.dedup();
    let mut out = format!(
        "| program | {} |\n|---|{}\n",
        names.join(" | "),
        "---:|".repeat(names.len())
    );
    for label in labels {
        let mut before = None;
        let cells: Vec<String> = matrix
            .releases
            .iter()
            .map(|c| {
                let cell = c.programs.get(label);
                let text = cell_text(cell, before);
                if let Some(bytes) = cell.and_then(Cell::cus) {
                    before = Some(bytes);
                }
                text
            })
            .collect();
        out.push_str(&format!("| {label} | {} |\n", cells.join(" | ")));
    }
    out
}

/// Each release's resolved anchor-lang and borsh.
pub fn release_table(matrix: &Matrix) -> String {
    let mut out = String::from(
        "| release | anchor-lang | borsh | programs built | calls measured |\n|---|---|---|---:|---:|\n",
    );
    for column in &matrix.releases {
        let built = matrix::built(&column.programs);
        let measured = matrix::measured(matrix.rows.values(), &column.release);
        let rows = matrix
            .rows
            .values()
            .filter(|r| r.cells.contains_key(&column.release))
            .count();
        out.push_str(&format!(
            "| {} | {} | {} | {built}/{} | {measured}/{rows} |\n",
            column.release,
            column.anchor_lang,
            column.borsh,
            column.programs.len(),
        ));
    }
    out
}

/// Why each empty cell is empty: a program not built (its first error or
/// the API the release lacks), or a call the contract refused.
pub fn failures(matrix: &Matrix) -> String {
    let mut out = String::new();
    for column in &matrix.releases {
        for (label, cell) in &column.programs {
            if let Cell::Failed(why) = cell {
                out.push_str(&format!(
                    "- {} `{label}` not built: {}\n",
                    column.release,
                    why.replace('\n', " / ")
                ));
            }
        }
        for (name, row) in &matrix.rows {
            if let Some(Cell::Failed(why)) = row.cells.get(&column.release) {
                out.push_str(&format!(
                    "- {} `{name}`: {}\n",
                    column.release,
                    why.replace('\n', " / ")
                ));
            }
        }
    }
    out
}

/// The blocks the docs quote (`report::docs`), from the committed matrix:
/// `anchor-versions` (CUs), `anchor-versions/sizes`, `anchor-versions/releases`.
pub fn doc_blocks(root: &Path) -> Result<BTreeMap<String, String>, String> {
    let matrix = &Matrix::read(&root.join(Matrix::COMMITTED))?;
    Ok(BTreeMap::from([
        ("anchor-versions".to_string(), cus_table(matrix)),
        ("anchor-versions/sizes".to_string(), size_table(matrix)),
        (
            "anchor-versions/releases".to_string(),
            release_table(matrix),
        ),
    ]))
}

/// The whole report.
pub fn markdown(matrix: &Matrix) -> String {
    let mut out = format!(
        "# The Anchor 1.x programs on every Anchor release\n\n`{}` at {} ({}). The programs of \
         `programs/anchor1/` built with each anchor-lang release in a workspace and lockfile of its \
         own, every benchmark call checked against Anchor's contract as `make bench` checks it; the \
         last column is the Anchor 2 program that does the same work (`BorshAccount<T>` for \
         `Account<T>`, `Account<T>` for `AccountLoader<T>`, its borsh `emit!` for Anchor 1.x's).\n\n{}",
        matrix.command,
        matrix.commit,
        matrix.date,
        release_table(matrix)
    );
    out.push_str(&format!(
        "\n## Compute units\n\nEach cell: the CUs, and in brackets the change from the nearest earlier \
         release with the cell (`=`: none); `-`: no cell (see below).\n\n{}",
        cus_table(matrix)
    ));
    out.push_str(&format!(
        "\n## Program sizes\n\n`.so` bytes (deploying a program pays rent on each), and the change \
         from the release before.\n\n{}",
        size_table(matrix)
    ));
    let failures = failures(matrix);
    if !failures.is_empty() {
        out.push_str(&format!("\n## Empty cells\n\n{failures}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anchor_versions::matrix::ReleaseColumn;

    fn matrix() -> Matrix {
        let column = |release: &str, bytes: Cell| ReleaseColumn {
            release: release.into(),
            anchor_lang: release.into(),
            borsh: "1.5.7".into(),
            programs: BTreeMap::from([("anchor1/noop".to_string(), bytes)]),
        };
        let row = MatrixRow {
            family: "token".into(),
            program: "noop".into(),
            operation: "full".into(),
            group: "exact".into(),
            cells: BTreeMap::from([
                ("0.1.0".to_string(), Cell::Cus(500)),
                (
                    "0.2.0".to_string(),
                    Cell::Failed("contract: wrong bytes".into()),
                ),
                ("0.3.0".to_string(), Cell::Cus(480)),
            ]),
        };
        Matrix {
            command: "make anchor-versions".into(),
            commit: "abc".into(),
            date: "2026-11-26".into(),
            releases: vec![
                column("0.1.0", Cell::Cus(1000)),
                column(
                    "0.2.0",
                    Cell::Failed("error[E0425]: no such function".into()),
                ),
                column("0.3.0", Cell::Cus(900)),
            ],
            rows: BTreeMap::from([("anchor1/noop::full".to_string(), row)]),
        }
    }

    #[test]
    fn a_change_is_against_the_nearest_release_with_a_cell() {
        let table = cus_table(&matrix());
        assert!(
            table.contains("| noop | full | 500 | - | 480 (-20) |"),
            "{table}"
        );
        let sizes = size_table(&matrix());
        assert!(
            sizes.contains("| anchor1/noop | 1000 | - | 900 (-100) |"),
            "{sizes}"
        );
    }

    #[test]
    fn every_empty_cell_says_why() {
        let text = failures(&matrix());
        assert!(
            text.contains("0.2.0 `anchor1/noop` not built: error[E0425]"),
            "{text}"
        );
        assert!(
            text.contains("0.2.0 `anchor1/noop::full`: contract: wrong bytes"),
            "{text}"
        );
        let releases = release_table(&matrix());
        assert!(
            releases.contains("| 0.2.0 | 0.2.0 | 1.5.7 | 0/1 | 0/1 |"),
            "{releases}"
        );
    }
}
