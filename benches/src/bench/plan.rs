//! The measuring plan: which programs run together in one Mollusk, and
//! with which cases. Every pass over the benchmark (`make bench`, `make
//! profile`, `make bench-diff` and the tests) measures these groups: each
//! family's crates (the token family's with the floor), then each other
//! framework's programs, family by family.

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
    /// Its programs and their ELFs, as loaded (the crates' token group
    /// holds the floor too).
    pub programs: Vec<Program>,
    pub elfs: Vec<Vec<u8>>,
    /// The rows' cases.
    pub cases: Vec<Case>,
    /// The floor's cases: the crates' token group's; empty elsewhere.
    pub floor_cases: Vec<Case>,
}

impl Group {
    /// A Mollusk with its programs loaded, with its family's heap frame.
    pub fn mollusk(&self, workspace: &Workspace) -> Result<Mollusk, HarnessError> {
        workspace.mollusk_with(&self.programs, &self.elfs)
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

/// The whole plan of `workspace`: the crates' groups, then the other
/// frameworks'.
pub fn of(workspace: &Workspace) -> Result<Vec<Group>, HarnessError> {
    let elfs_of = |programs: &[Program]| {
        programs
            .iter()
            .map(|p| workspace.elf(p))
            .collect::<Result<Vec<_>, _>>()
    };
    let programs = workspace.programs()?;
    let mut groups = families(workspace, (&programs, &elfs_of(&programs)?))?;
    let others = workspace.framework_programs();
    groups.extend(frameworks((&others, &elfs_of(&others)?))?);
    Ok(groups)
}

/// The crates' groups among `programs` (and their `elfs`): one a family,
/// the token family's with the floor and its cases.
pub fn families(
    workspace: &Workspace,
    (programs, elfs): (&[Program], &[Vec<u8>]),
) -> Result<Vec<Group>, HarnessError> {
    let floor = workspace.floor();
    let floor_elfs = floor
        .iter()
        .map(|p| workspace.elf(p))
        .collect::<Result<Vec<_>, _>>()?;
    let mut groups = Vec::new();
    for family in Family::ALL {
        let (mut group, mut group_elfs) = group_of(programs, elfs, Framework::PINOCCHIO, family);
        if group.is_empty() {
            continue;
        }
        let cases = cases(&group)?;
        let mut floor_cases = Vec::new();
        if family == Family::Token {
            floor_cases = self::floor_cases(&floor);
            group.extend(floor.iter().cloned());
            group_elfs.extend(floor_elfs.iter().cloned());
        }
        groups.push(Group {
            framework: Framework::PINOCCHIO,
            family,
            programs: group,
            elfs: group_elfs,
            cases,
            floor_cases,
        });
    }
    Ok(groups)
}

/// The other frameworks' groups among `others` (and their `elfs`):
/// framework by framework, family by family, each by its framework's
/// contract.
pub fn frameworks((others, elfs): (&[Program], &[Vec<u8>])) -> Result<Vec<Group>, HarnessError> {
    let mut groups = Vec::new();
    for framework in Framework::others() {
        for family in Family::ALL {
            let (programs, elfs) = group_of(others, elfs, framework, family);
            if programs.is_empty() {
                continue;
            }
            let cases = framework_cases(&programs)?;
            groups.push(Group {
                framework,
                family,
                programs,
                elfs,
                cases,
                floor_cases: Vec::new(),
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

/// `programs` and their `elfs` of one framework and family (none where
/// it has no program).
fn group_of(
    programs: &[Program],
    elfs: &[Vec<u8>],
    framework: Framework,
    family: Family,
) -> (Vec<Program>, Vec<Vec<u8>>) {
    programs
        .iter()
        .zip(elfs)
        .filter(|(p, _)| p.framework == framework && p.family == family)
        .map(|(p, elf)| (p.clone(), elf.clone()))
        .unzip()
}
