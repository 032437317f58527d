//! mollusk-svm-bencher's table of each group of the plan.

use std::{fs, path::PathBuf};

use mollusk_svm::Mollusk;
use mollusk_svm_bencher::MolluskComputeUnitBencher;

use crate::{Case, Expected, HarnessError};

/// Where a group's bencher table goes, its Mollusk and its cases.
pub type Bencher = (PathBuf, Mollusk, Vec<Case>);

/// mollusk-svm-bencher's table of each group, from the cases every one
/// of which was checked against its contract first.
pub fn write_tables(benchers: Vec<Bencher>) -> Result<(), HarnessError> {
    for (dir, mollusk, cases) in benchers {
        fs::create_dir_all(&dir)
            .map_err(|e| HarnessError::Report(format!("creating {}: {e}", dir.display())))?;
        let names: Vec<String> = cases.iter().map(Case::name).collect();
        // The bencher's own check only holds where every call succeeds
        // (the metadata family has error-path rows).
        let all_succeed = cases
            .iter()
            .all(|c| matches!(c.expected, Expected::Success(_)));
        let mut bencher = MolluskComputeUnitBencher::new(mollusk)
            .must_pass(all_succeed)
            .out_dir(dir.to_str().expect("UTF-8 path"));
        for (name, case) in names.iter().zip(&cases) {
            bencher = bencher.bench((name, &case.instruction, &case.accounts));
        }
        bencher.execute();
    }
    Ok(())
}
