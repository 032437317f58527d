//! The measuring plan: which programs run together in one Mollusk, and
//! with which cases. Every pass over the benchmark (`make bench`, `make
//! profile`, `make bench-diff`, `make fixtures` and the tests) measures
//! these groups, in this order: each family's crates (the token family's
//! with the floor), then each other framework's programs, family by
//! family.

use std::path::PathBuf;

use mollusk_svm::Mollusk;

use crate::{
    Case, Expected, Family, Framework, HarnessError, Program, Workspace,
    families::{cases, framework_cases},
};

/// One group of the plan: one framework's programs of one family, loaded
/// together, and their cases.
pub struct Group {
    pub framework: Framework,
    pub family: Family,
    /// Its programs, in the workspace's order.
    pub programs: Vec<Program>,
    /// The floor, loaded beside them: the crates' token group's; empty
    /// elsewhere.
    pub floor: Vec<Program>,
    /// The rows' cases.
    pub cases: Vec<Case>,
    /// The floor's cases.
    pub floor_cases: Vec<Case>,
}

/// A group as a pass runs it: its programs (the floor's too), their
/// bytes, and a Mollusk with them loaded, with the family's heap frame.
pub struct Loaded<'g> {
    pub group: &'g Group,
    pub programs: Vec<Program>,
    pub elfs: Vec<Vec<u8>>,
    pub mollusk: Mollusk,
}

impl Group {
    /// Its programs read and loaded. A pass loads each group as it
    /// reaches it, so that a bad crate program is named before a missing
    /// copy of it on another framework.
    pub fn load(&self, workspace: &Workspace) -> Result<Loaded<'_>, HarnessError> {
        let programs: Vec<Program> = self.programs.iter().chain(&self.floor).cloned().collect();
        let elfs = programs
            .iter()
            .map(|p| workspace.elf(p))
            .collect::<Result<Vec<_>, _>>()?;
        let mollusk = workspace.mollusk_with(&programs, &elfs)?;
        Ok(Loaded {
            group: self,
            programs,
            elfs,
            mollusk,
        })
    }

    /// Whether a pass measures what its programs validate of the parts
    /// an operation does not read: the crates' message and metadata
    /// groups.
    pub fn probes_validation(&self) -> bool {
        self.framework == Framework::PINOCCHIO && self.family != Family::Token
    }

    /// The folder of its mollusk-svm-bencher table: `target/benches/` for
    /// the crates' token family (where it has always been),
    /// `target/benches/<family>/` for their other families,
    /// `target/benches/<framework>/<family>/` for another framework's.
    pub fn bencher_dir(&self, workspace: &Workspace) -> PathBuf {
        match (self.framework, self.family) {
            (Framework::PINOCCHIO, Family::Token) => workspace.benches_dir(),
            (Framework::PINOCCHIO, family) => workspace.benches_dir().join(family.name()),
            (framework, family) => workspace
                .benches_dir()
                .join(framework.name())
                .join(family.name()),
        }
    }
}

/// The whole plan of `workspace`: the crates' groups, one a family (the
/// token family's with the floor), then the other frameworks', framework
/// by framework, family by family, each by its framework's contract.
/// Nothing is read from `target/deploy/` until a group is loaded.
pub fn of(workspace: &Workspace) -> Result<Vec<Group>, HarnessError> {
    let programs = workspace.programs()?;
    let others = workspace.framework_programs();
    let mut groups = Vec::new();
    for framework in Framework::all() {
        let pool = if framework == Framework::PINOCCHIO {
            &programs
        } else {
            &others
        };
        for family in Family::ALL {
            let own: Vec<Program> = pool
                .iter()
                .filter(|p| p.framework == framework && p.family == family)
                .cloned()
                .collect();
            if own.is_empty() {
                continue;
            }
            let (cases, floor) = if framework == Framework::PINOCCHIO {
                let floor = match family {
                    Family::Token => workspace.floor(),
                    _ => Vec::new(),
                };
                (cases(&own)?, floor)
            } else {
                (framework_cases(&own)?, Vec::new())
            };
            groups.push(Group {
                framework,
                family,
                floor_cases: floor_cases(&floor),
                floor,
                programs: own,
                cases,
            });
        }
    }
    Ok(groups)
}

/// The floor's cases: the same calls, which must succeed and change nothing.
pub(crate) fn floor_cases(floor: &[Program]) -> Vec<Case> {
    let mut cases = cases(floor).expect("the floor is a token program");
    for case in &mut cases {
        case.expected = Expected::Success(case.accounts[0].1.data.clone());
    }
    cases
}
