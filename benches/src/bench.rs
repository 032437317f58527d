//! One `make bench` run: check every program x operation against the
//! contract, then let mollusk-svm-bencher measure them into target/benches/.

use std::collections::BTreeMap;

use common::Operation;
use mollusk_svm_bencher::MolluskComputeUnitBencher;

use crate::{
    Case, HarnessError, Input, Workspace,
    report::{self, Measurement, Provenance},
};

/// The benchmark cases: each program's valid call of each operation.
pub fn cases(workspace: &Workspace) -> Result<Vec<Case>, HarnessError> {
    Ok(workspace
        .programs()?
        .iter()
        .flat_map(|program| {
            Operation::ALL.map(|op| Case::new(program, op.name(), &Input::valid(op)))
        })
        .collect())
}

/// Runs every case once, failing on the first result the contract rejects.
pub fn measure(workspace: &Workspace) -> Result<Vec<Measurement>, HarnessError> {
    let mollusk = workspace.mollusk(&workspace.programs()?)?;
    cases(workspace)?
        .iter()
        .map(|case| {
            case.run(&mollusk).map(|result| Measurement {
                program: case.program.clone(),
                operation: case.operation.clone(),
                cus: result.compute_units_consumed,
            })
        })
        .collect()
}

/// The whole run; returns the summary table it wrote.
pub fn run(workspace: &Workspace) -> Result<String, HarnessError> {
    let programs = workspace.programs()?;
    // Every result is checked before any number is written.
    let measurements = measure(workspace)?;

    let out_dir = workspace.benches_dir();
    let cases = cases(workspace)?;
    let names: Vec<String> = cases.iter().map(Case::name).collect();
    let mut bencher = MolluskComputeUnitBencher::new(workspace.mollusk(&programs)?)
        .must_pass(true)
        .out_dir(out_dir.to_str().expect("UTF-8 path"));
    for (name, case) in names.iter().zip(&cases) {
        bencher = bencher.bench((name, &case.instruction, &case.accounts));
    }
    bencher.execute();

    let elfs = programs
        .iter()
        .map(|p| workspace.elf(p))
        .collect::<Result<Vec<_>, _>>()?;
    let sizes: BTreeMap<String, u64> = programs
        .iter()
        .zip(&elfs)
        .map(|(p, elf)| (p.name.clone(), elf.len() as u64))
        .collect();
    let provenance = Provenance::collect(workspace, &programs, &elfs);
    let summary = report::summary_markdown(&provenance, &measurements, &sizes);
    std::fs::write(out_dir.join("summary.md"), &summary).expect("write target/benches/summary.md");
    Ok(summary)
}
