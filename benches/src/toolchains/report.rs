//! The matrix as markdown (target/benches/toolchains.md, and the README's
//! tables): each cell per toolchain with min, max and spread, and per
//! operation whether the order of crates is the same on every toolchain.

use std::{collections::BTreeMap, path::Path};

use super::{
    REFERENCE,
    matrix::{self, Matrix, MatrixRow},
};

/// Spearman's rank correlation of two equally long samples (ties get
/// their average rank); 1 when either has no variation to rank.
pub fn spearman(a: &[u64], b: &[u64]) -> f64 {
    fn ranks(values: &[u64]) -> Vec<f64> {
        let mut order: Vec<usize> = (0..values.len()).collect();
        order.sort_by_key(|&i| values[i]);
        let mut ranks = vec![0.0; values.len()];
        let mut start = 0;
        while start < order.len() {
            let mut end = start;
            while end + 1 < order.len() && values[order[end + 1]] == values[order[start]] {
                end += 1;
            }
            let average = (start + end) as f64 / 2.0 + 1.0;
            for &i in &order[start..=end] {
                ranks[i] = average;
            }
            start = end + 1;
        }
        ranks
    }
    let (ra, rb) = (ranks(a), ranks(b));
    let mean = |r: &[f64]| r.iter().sum::<f64>() / r.len() as f64;
    let (ma, mb) = (mean(&ra), mean(&rb));
    let cov: f64 = ra.iter().zip(&rb).map(|(x, y)| (x - ma) * (y - mb)).sum();
    let va: f64 = ra.iter().map(|x| (x - ma).powi(2)).sum();
    let vb: f64 = rb.iter().map(|y| (y - mb).powi(2)).sum();
    if va == 0.0 || vb == 0.0 {
        1.0
    } else {
        cov / (va * vb).sqrt()
    }
}

/// Two crates whose order differs between the reference and a toolchain:
/// (crate a, crate b, a and b on the reference, a and b on the other).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap {
    pub a: String,
    pub b: String,
    pub reference: (u64, u64),
    pub other: (u64, u64),
}

/// The rows of one family, operation and group that have a value on
/// both toolchains: (crate, reference CUs, other CUs).
fn paired<'a>(rows: &[&'a MatrixRow], reference: &str, other: &str) -> Vec<(&'a str, u64, u64)> {
    rows.iter()
        .filter_map(|row| {
            let r = row.cells.get(reference)?.cus()?;
            let o = row.cells.get(other)?.cus()?;
            Some((row.program.as_str(), r, o))
        })
        .collect()
}

/// Spearman's rank correlation of one group's crates between the
/// reference and another toolchain; `None` with fewer than two crates
/// measured on both.
fn correlation(rows: &[&MatrixRow], other: &str) -> Option<f64> {
    let values = paired(rows, REFERENCE, other);
    if values.len() < 2 {
        return None;
    }
    let r: Vec<u64> = values.iter().map(|v| v.1).collect();
    let o: Vec<u64> = values.iter().map(|v| v.2).collect();
    Some(spearman(&r, &o))
}

/// The families in the matrix, by name.
fn families(matrix: &Matrix) -> Vec<&str> {
    let mut families: Vec<&str> = matrix.rows.values().map(|r| r.family.as_str()).collect();
    families.sort();
    families.dedup();
    families
}

/// Pairs strictly ordered one way on the reference and the other way on
/// the other toolchain.
pub fn swaps(rows: &[&MatrixRow], reference: &str, other: &str) -> Vec<Swap> {
    let values = paired(rows, reference, other);
    let mut out = Vec::new();
    for (i, &(a, ra, oa)) in values.iter().enumerate() {
        for &(b, rb, ob) in &values[i + 1..] {
            if ra.cmp(&rb) != oa.cmp(&ob) && ra != rb && oa != ob {
                out.push(Swap {
                    a: a.into(),
                    b: b.into(),
                    reference: (ra, rb),
                    other: (oa, ob),
                });
            }
        }
    }
    out
}

/// Family, operation, group: the rows whose crates are ranked together.
type GroupKey = (String, String, String);

/// Rows grouped as an order of crates is read: family, operation, group.
pub fn groups(matrix: &Matrix) -> BTreeMap<GroupKey, Vec<&MatrixRow>> {
    let mut out: BTreeMap<_, Vec<&MatrixRow>> = BTreeMap::new();
    for row in matrix.rows.values() {
        if row.program == "noop" {
            continue;
        }
        out.entry((row.family.clone(), row.operation.clone(), row.group.clone()))
            .or_default()
            .push(row);
    }
    out
}

/// (min, max) of a row's measured cells.
pub fn range(row: &MatrixRow) -> Option<(u64, u64)> {
    let values: Vec<u64> = row.cells.values().filter_map(|c| c.cus()).collect();
    Some((*values.iter().min()?, *values.iter().max()?))
}

/// A group's natural order for tables: sizes numerically, others by name.
fn group_key(group: &str) -> (usize, String) {
    (group.parse().unwrap_or(usize::MAX), group.to_string())
}

fn toolchain_table(matrix: &Matrix) -> String {
    let mut out = String::from(
        "| toolchain | rustc | LLVM | linker | sBPF | programs built | cases measured |\n|---|---|---|---|---|---:|---:|\n",
    );
    for column in &matrix.toolchains {
        let built = matrix::built(&column.programs);
        let measured = matrix::measured(matrix.rows.values(), &column.name);
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {built}/{} | {measured}/{} |\n",
            column.name,
            column.versions.rustc,
            column.versions.llvm,
            column.versions.linker,
            if column.sbpf_arch.is_empty() {
                "-"
            } else {
                &column.sbpf_arch
            },
            column.programs.len(),
            matrix.rows.len()
        ));
    }
    out
}

/// Every failure, by toolchain: builds, then cases.
fn failures(matrix: &Matrix) -> String {
    let mut out = String::new();
    for column in &matrix.toolchains {
        for (program, cell) in &column.programs {
            if let super::matrix::Cell::Failed(e) = cell {
                let e = e.replace('\n', " / ");
                out.push_str(&format!(
                    "- {} `{program}` did not build: {e}\n",
                    column.name
                ));
            }
        }
        for (name, row) in &matrix.rows {
            if let Some(super::matrix::Cell::Failed(e)) = row.cells.get(&column.name) {
                let e = e.replace('\n', " / ");
                out.push_str(&format!("- {} `{name}`: {e}\n", column.name));
            }
        }
    }
    out
}

/// One family's cells: a row per case, a column per toolchain, then min,
/// max and spread (max / min).
pub fn cell_table(matrix: &Matrix, family: &str) -> String {
    let names = matrix.names();
    let mut out = format!(
        "| case | {} | min | max | spread |\n|---|{}---:|---:|---:|\n",
        names.join(" | "),
        "---:|".repeat(names.len())
    );
    let mut rows: Vec<(&String, &MatrixRow)> = matrix
        .rows
        .iter()
        .filter(|(_, r)| r.family == family)
        .collect();
    rows.sort_by_key(|(name, r)| (r.operation.clone(), group_key(&r.group), (*name).clone()));
    for (name, row) in rows {
        let cells: Vec<String> = names
            .iter()
            .map(|n| match row.cells.get(*n) {
                Some(super::matrix::Cell::Cus(c)) => c.to_string(),
                Some(super::matrix::Cell::Failed(_)) => "failed".into(),
                None => "-".into(),
            })
            .collect();
        let (min, max, spread) = match range(row) {
            Some((min, max)) => (
                min.to_string(),
                max.to_string(),
                format!("{:.2}x", max as f64 / min.max(1) as f64),
            ),
            None => ("-".into(), "-".into(), "-".into()),
        };
        out.push_str(&format!(
            "| {name} | {} | {min} | {max} | {spread} |\n",
            cells.join(" | ")
        ));
    }
    out
}

/// Per family and operation: the lowest rank correlation with the
/// reference over the operation's groups, per toolchain, and every pair
/// of crates that swaps.
pub fn order_table(matrix: &Matrix, family: &str) -> (String, Vec<String>) {
    let others: Vec<&str> = matrix
        .names()
        .into_iter()
        .filter(|n| *n != REFERENCE)
        .collect();
    let mut table = format!(
        "| operation | groups | {} |\n|---|---:|{}\n",
        others
            .iter()
            .map(|n| format!("rank corr. {n} vs {REFERENCE} (lowest)"))
            .collect::<Vec<_>>()
            .join(" | "),
        "---:|".repeat(others.len())
    );
    let mut swap_lines = Vec::new();
    let groups = groups(matrix);
    let mut operations: Vec<&String> = groups
        .keys()
        .filter(|(f, _, _)| f == family)
        .map(|(_, op, _)| op)
        .collect();
    operations.dedup();
    for operation in operations {
        let mut of_op: Vec<(&GroupKey, &Vec<&MatrixRow>)> = groups
            .iter()
            .filter(|((f, op, _), _)| f == family && op == operation)
            .collect();
        of_op.sort_by_key(|((_, _, g), _)| group_key(g));
        let mut lowest = Vec::new();
        for other in &others {
            let mut min = f64::INFINITY;
            for ((_, _, group), rows) in &of_op {
                let Some(rho) = correlation(rows, other) else {
                    continue;
                };
                min = min.min(rho);
                for swap in swaps(rows, REFERENCE, other) {
                    swap_lines.push(format!(
                        "{operation} {group}, {other}: {} {} vs {} {} on {REFERENCE}, {} vs {} on {other}",
                        swap.a,
                        swap.b,
                        swap.reference.0,
                        swap.reference.1,
                        swap.other.0,
                        swap.other.1
                    ));
                }
            }
            lowest.push(if min.is_finite() {
                format!("{min:.3}")
            } else {
                "-".into()
            });
        }
        table.push_str(&format!(
            "| {operation} | {} | {} |\n",
            of_op.len(),
            lowest.join(" | ")
        ));
    }
    (table, swap_lines)
}

/// One line per family: cases measured on each toolchain, the largest
/// spread of a cell (with its case and values), the lowest rank
/// correlation and the number of pairs that swap.
pub fn family_summary(matrix: &Matrix) -> String {
    let names = matrix.names();
    let mut out = format!(
        "| family | {} | largest spread (case: min-max) | lowest rank corr. | pairs that swap |\n|---|{}---|---:|---:|\n",
        names
            .iter()
            .map(|n| format!("{n} cases"))
            .collect::<Vec<_>>()
            .join(" | "),
        "---:|".repeat(names.len())
    );
    for family in families(matrix) {
        let rows: Vec<(&String, &MatrixRow)> = matrix
            .rows
            .iter()
            .filter(|(_, r)| r.family == family)
            .collect();
        let counts: Vec<String> = names
            .iter()
            .map(|n| {
                let measured = rows
                    .iter()
                    .filter(|(_, r)| r.cells.get(*n).and_then(|c| c.cus()).is_some())
                    .count();
                format!("{measured}/{}", rows.len())
            })
            .collect();
        let widest = rows
            .iter()
            .filter_map(|(name, r)| Some((*name, range(r)?)))
            .max_by(|(_, (a0, a1)), (_, (b0, b1))| {
                (*a1 as f64 / (*a0).max(1) as f64).total_cmp(&(*b1 as f64 / (*b0).max(1) as f64))
            });
        let widest = match widest {
            None => "-".into(),
            Some((_, (min, max))) if min == max => "none: every cell equal".into(),
            Some((name, (min, max))) => {
                format!(
                    "{:.2}x (`{name}`: {min}-{max})",
                    max as f64 / min.max(1) as f64
                )
            }
        };
        let mut lowest = f64::INFINITY;
        let mut swapped = 0;
        for ((f, _, _), group) in groups(matrix) {
            if f != family {
                continue;
            }
            for other in names.iter().filter(|n| **n != REFERENCE) {
                if let Some(rho) = correlation(&group, other) {
                    lowest = lowest.min(rho);
                    swapped += swaps(&group, REFERENCE, other).len();
                }
            }
        }
        let lowest = if lowest.is_finite() {
            format!("{lowest:.3}")
        } else {
            "-".into()
        };
        out.push_str(&format!(
            "| {family} | {} | {widest} | {lowest} | {swapped} |\n",
            counts.join(" | ")
        ));
    }
    out
}

/// The blocks `docs/toolchain.md` quotes (`report::docs`), from the
/// committed matrix: `toolchains` (one row a toolchain) and
/// `toolchains/by-family`.
pub fn doc_blocks(root: &Path) -> Result<BTreeMap<String, String>, String> {
    let matrix = &Matrix::read(&root.join(Matrix::COMMITTED))?;
    Ok(BTreeMap::from([
        ("toolchains".to_string(), toolchain_table(matrix)),
        ("toolchains/by-family".to_string(), family_summary(matrix)),
    ]))
}

/// The whole report.
pub fn markdown(matrix: &Matrix) -> String {
    let mut out = format!(
        "# Compute units by toolchain\n\n`{}` at {} ({}). Each program built by each toolchain \
         and every case checked against its contract, as `make bench` does; a failure is a \
         result. `{REFERENCE}` is this tree's default (its numbers are `make bench`'s).\n\n{}",
        matrix.command,
        matrix.commit,
        matrix.date,
        toolchain_table(matrix)
    );
    out.push_str(&format!(
        "\nBy family (rank correlation with `{REFERENCE}`, over every operation and group):\n\n{}",
        family_summary(matrix)
    ));
    let failures = failures(matrix);
    if !failures.is_empty() {
        out.push_str(&format!("\nFailures:\n\n{failures}"));
    }
    for family in families(matrix) {
        let (order, swaps) = order_table(matrix, family);
        out.push_str(&format!(
            "\n## {family} family\n\n### Order of crates\n\nSpearman's rank correlation of the crates' CUs \
             with `{REFERENCE}`'s, per operation the lowest over its groups (token: shapes; message: \
             sizes; metadata: instances); 1.000 is the same order.\n\n{order}"
        ));
        if swaps.is_empty() {
            out.push_str("\nNo pair of crates swaps.\n");
        } else {
            out.push_str(&format!(
                "\nPairs that swap ({}):\n\n{}\n",
                swaps.len(),
                swaps
                    .iter()
                    .map(|s| format!("- {s}"))
                    .collect::<Vec<_>>()
                    .join("\n")
            ));
        }
        out.push_str(&format!(
            "\n### Every cell\n\n{}",
            cell_table(matrix, family)
        ));
    }
    out
}
