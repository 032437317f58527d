//! Runs every case of every program one toolchain built, each checked
//! against its contract as `make bench` checks it; a program that does not
//! load and a result the contract refuses are recorded, not fatal.

use std::collections::BTreeMap;

use super::matrix::{Cell, MatrixRow};
use crate::{Case, Family, HarnessError, Program, Workspace};

/// Per row name: the row and this toolchain's cell.
pub type Cells = BTreeMap<String, (MatrixRow, Cell)>;

fn row(case: &Case) -> MatrixRow {
    let group = match case.family {
        Family::Token => case.shape.name().to_string(),
        _ => case
            .size
            .map(|s| s.to_string())
            .or(case.instance.map(String::from))
            .unwrap_or_default(),
    };
    MatrixRow {
        family: case.family.name().into(),
        program: case.name.clone(),
        operation: case.operation.clone(),
        group,
        cells: BTreeMap::new(),
    }
}

/// Each case of `program` in its own Mollusk, so one program's failure
/// stays its own.
fn run_program(workspace: &Workspace, program: &Program, cases: &[Case], out: &mut Cells) {
    let mollusk = workspace.mollusk(std::slice::from_ref(program));
    for case in cases {
        let cell = match &mollusk {
            Ok(mollusk) => case
                .run(mollusk)
                .map(|result| result.compute_units_consumed)
                .map_err(|e| e.to_string()),
            Err(e) => Err(format!("not loaded: {e}")),
        };
        out.insert(case.name(), (row(case), cell.into()));
    }
}

/// Every case of the programs that built, each program's from `cases_of`
/// (a program whose cases cannot be made gets one failed cell naming why).
pub fn measure(
    workspace: &Workspace,
    programs: &[Program],
    built: &BTreeMap<String, Cell>,
    cases_of: &dyn Fn(&Program) -> Result<Vec<Case>, HarnessError>,
) -> Cells {
    let mut out = Cells::new();
    for program in programs {
        if !matches!(built.get(&program.label()), Some(Cell::Cus(_))) {
            continue;
        }
        let program_cases = match cases_of(program) {
            Ok(cases) => cases,
            // No cases to run: one failed cell names why.
            Err(e) => {
                let row = MatrixRow {
                    family: program.family.name().into(),
                    program: program.name.clone(),
                    operation: "(cases)".into(),
                    group: program.shape.name().into(),
                    cells: BTreeMap::new(),
                };
                out.insert(program.label(), (row, Cell::Failed(e.to_string())));
                continue;
            }
        };
        run_program(workspace, program, &program_cases, &mut out);
    }
    out
}
