//! The committed toolchain matrix (benches/toolchains.json, written by
//! `make toolchains`): it parses, names its toolchains, and its default
//! column is this tree's numbers; and the rank arithmetic of its report.

use std::collections::BTreeMap;

use benches::{
    Workspace,
    toolchains::{
        REFERENCE, TOOLCHAINS,
        matrix::{Cell, Matrix, MatrixRow},
        report::{spearman, swaps},
    },
};

#[test]
fn committed_matrix_names_its_toolchains_and_matches_this_tree() {
    let workspace = Workspace::current();
    let matrix = Matrix::read(&workspace.root.join("benches/toolchains.json"))
        .unwrap_or_else(|e| panic!("{e}; run `make toolchains`"));
    let names: Vec<&str> = matrix.names();
    let expected: Vec<&str> = TOOLCHAINS.iter().map(|t| t.name).collect();
    assert_eq!(names, expected);
    // Three LLVM majors, read from each nightly's `rustc -vV`, and v3.
    let mut majors: Vec<&str> = matrix
        .toolchains
        .iter()
        .map(|c| c.versions.llvm.split('.').next().unwrap())
        .collect();
    majors.dedup();
    assert_eq!(majors, ["21", "22", "23"]);
    for column in &matrix.toolchains {
        assert!(column.versions.rustc.contains("nightly"), "{column:?}");
        assert!(
            column.versions.linker.starts_with("sbpf-linker 0."),
            "{column:?}"
        );
        assert!(!column.programs.is_empty(), "{column:?}");
    }
    let v3 = matrix
        .toolchains
        .iter()
        .find(|c| c.name == "llvm23-v3")
        .unwrap();
    assert_eq!(v3.sbpf_arch, "V3");

    // The default column is what `make bench` measures on this tree.
    let measured = crate::measure(&workspace);
    let mut differences = Vec::new();
    for m in &measured {
        let cell = matrix
            .rows
            .get(&m.row())
            .and_then(|r| r.cells.get(REFERENCE));
        if cell != Some(&Cell::Cus(m.cus)) {
            differences.push(format!(
                "{}: {} here, {cell:?} in the matrix",
                m.row(),
                m.cus
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "benches/toolchains.json's {REFERENCE} column is not this tree's: run `make toolchains`\n{}",
        differences.join("\n")
    );
}

fn row(program: &str, cells: &[(&str, u64)]) -> MatrixRow {
    MatrixRow {
        family: "token".into(),
        program: program.into(),
        operation: "full".into(),
        group: "exact".into(),
        cells: cells
            .iter()
            .map(|(t, c)| (t.to_string(), Cell::Cus(*c)))
            .collect::<BTreeMap<_, _>>(),
    }
}

#[test]
fn rank_correlation_and_swaps_have_known_answers() {
    assert_eq!(spearman(&[1, 2, 3, 4], &[10, 20, 30, 40]), 1.0);
    assert_eq!(spearman(&[1, 2, 3, 4], &[40, 30, 20, 10]), -1.0);
    // One adjacent swap of four: 1 - 6 * 2 / (4 * 15) = 0.8.
    assert!((spearman(&[1, 2, 3, 4], &[1, 3, 2, 4]) - 0.8).abs() < 1e-12);
    // Ties take their average rank.
    assert!((spearman(&[1, 1, 2], &[5, 6, 7]) - 0.866_025_403_784_438_6).abs() < 1e-12);

    let a = row("a", &[("x", 10), ("y", 30)]);
    let b = row("b", &[("x", 20), ("y", 25)]);
    let c = row("c", &[("x", 30), ("y", 30)]);
    let found = swaps(&[&a, &b, &c], "x", "y");
    // a < b on x, a > b on y; a = c on y is no swap; b < c both.
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!((found[0].a.as_str(), found[0].b.as_str()), ("a", "b"));
    assert_eq!((found[0].reference, found[0].other), ((10, 20), (30, 25)));
}

#[test]
fn family_summary_counts_cases_spread_and_swaps() {
    use benches::toolchains::{install::Versions, matrix::ToolchainColumn, report::family_summary};
    let column = |name: &str| ToolchainColumn {
        name: name.into(),
        channel: "nightly".into(),
        versions: Versions {
            rustc: "r".into(),
            llvm: "23.1.1".into(),
            linker: "sbpf-linker 0.2.6".into(),
        },
        rustflags: String::new(),
        sbpf_arch: "V0".into(),
        programs: BTreeMap::new(),
    };
    // b and c swap between the reference and `other`; a moves 100 -> 150.
    let rows = [
        ("a", row("a", &[(REFERENCE, 100), ("other", 150)])),
        ("b", row("b", &[(REFERENCE, 200), ("other", 260)])),
        ("c", row("c", &[(REFERENCE, 300), ("other", 250)])),
    ];
    let matrix = Matrix {
        command: "test".into(),
        commit: "c".into(),
        date: "d".into(),
        toolchains: vec![column(REFERENCE), column("other")],
        rows: rows
            .into_iter()
            .map(|(name, row)| (format!("{name}::full"), row))
            .collect(),
    };
    let summary = family_summary(&matrix);
    assert!(
        summary.contains("| token | 3/3 | 3/3 | 1.50x (`a::full`: 100-150) | 0.500 | 1 |"),
        "{summary}"
    );
}
