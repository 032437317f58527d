//! `make bench`: every program x operation, checked against the contract,
//! then measured by mollusk-svm-bencher into target/benches/.

use std::{collections::BTreeMap, process::ExitCode};

use benches::{
    Case, HarnessError, Input, Workspace,
    report::{self, Measurement, Provenance},
};
use common::Operation;
use mollusk_svm_bencher::MolluskComputeUnitBencher;

fn main() -> ExitCode {
    match run() {
        Ok(summary) => {
            println!("{summary}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("make bench: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<String, HarnessError> {
    let workspace = Workspace::current();
    let programs = workspace.programs()?;
    let mollusk = workspace.mollusk(&programs)?;
    let cases: Vec<Case> = programs
        .iter()
        .flat_map(|program| {
            Operation::ALL.map(|op| Case::new(program, op.name(), &Input::valid(op)))
        })
        .collect();

    // Every result is checked before any number is written.
    let mut measurements = Vec::new();
    for case in &cases {
        let result = case.run(&mollusk)?;
        measurements.push(Measurement {
            program: case.program.clone(),
            operation: case.operation.clone(),
            cus: result.compute_units_consumed,
        });
    }

    let out_dir = workspace.benches_dir();
    let names: Vec<String> = cases.iter().map(Case::name).collect();
    let mut bencher = MolluskComputeUnitBencher::new(mollusk)
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
    let provenance = Provenance::collect(&workspace, &programs, &elfs);
    let summary = report::summary_markdown(&provenance, &measurements, &sizes);
    let path = out_dir.join("summary.md");
    std::fs::write(&path, &summary).expect("write target/benches/summary.md");
    Ok(summary)
}
