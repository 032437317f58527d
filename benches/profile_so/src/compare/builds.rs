//! The two runs side by side: each fixture both builds ran, its behaviour
//! compared (result and resulting accounts), and where it is the same, its
//! change in CUs by category and by frame.

use std::collections::BTreeMap;

pub use benches::compare::{CODE_NAMED_APART, CostChange, FrameChange, percent, signed};
use benches::compare::{NamedBy, frames_match};

use crate::{Naming, Profiled, Refused, Run, replay};

/// The two runs and what they show.
pub struct Comparison {
    pub new: Run,
    pub base: Run,
    pub matching: Matching,
    /// The fixtures both builds ran with the same behaviour, in file order.
    pub compared: Vec<Compared>,
    pub behaviour: Vec<BehaviourChange>,
    /// Fixtures one build ran and the other did not (refused, or not run).
    pub unpaired: Vec<Refused>,
}

impl Comparison {
    /// Every fixture not compared, once: not run by both, or refused by
    /// either build's run (a damaged file is refused by both).
    pub fn not_compared(&self) -> Vec<&Refused> {
        let mut out: Vec<&Refused> = self.unpaired.iter().chain(&self.new.refused).collect();
        for r in &self.base.refused {
            if !out.iter().any(|o| o.fixture == r.fixture) {
                out.push(r);
            }
        }
        out
    }
}

/// How the two profiles' frames are matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Matching {
    /// By name: inlined frames (`dwarf`) or functions (`symbols`), both
    /// builds named the same way.
    Frames(&'static str),
    /// Not by frame, and why; the categories both namings allow.
    Totals(String),
}

impl Matching {
    /// Its kind in `results.json`: `dwarf`, `symbols` or `totals`.
    pub fn kind(&self) -> &'static str {
        match self {
            Matching::Frames(kind) => kind,
            Matching::Totals(_) => "totals",
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Matching::Frames("dwarf") => {
                "frames matched by name: inlined frames, from both builds' DWARF".into()
            }
            Matching::Frames(_) => {
                "frames matched by name: functions, from both builds' symbol tables".into()
            }
            Matching::Totals(why) => format!("totals and categories only, no frames: {why}"),
        }
    }
}

/// One fixture's change in cost, or an instruction's: its fixtures'
/// added up ([`by_instruction`]).
#[derive(Clone, Debug)]
pub struct Compared {
    /// The fixture's file name; an instruction's fixtures', joined by `, `.
    pub fixture: String,
    /// How many fixtures it adds up: 1 for a fixture.
    pub fixtures: usize,
    pub instruction: String,
    pub cost: CostChange,
}

/// A fixture the two builds answer differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BehaviourChange {
    pub fixture: String,
    pub instruction: String,
    pub differs: String,
}

/// Sets `new` against `base`.
pub fn compare(new: Run, base: Run) -> Comparison {
    let matching = matching(&new.naming, &base.naming);
    let named_alike = new.naming.named_by() == base.naming.named_by();
    let (mut compared, mut behaviour, mut unpaired) = (Vec::new(), Vec::new(), Vec::new());
    for p in &new.profiled {
        let Some(b) = base.profiled.iter().find(|b| b.fixture == p.fixture) else {
            unpaired.push(Refused {
                fixture: p.fixture.clone(),
                reason: "the base build did not run it".into(),
            });
            continue;
        };
        if let Err(differs) = replay::same_outcome(
            &p.result,
            &b.result,
            ("the base build gives", "the base build's"),
        ) {
            behaviour.push(BehaviourChange {
                fixture: p.fixture.clone(),
                instruction: p.group(),
                differs,
            });
            continue;
        }
        compared.push(compared_of(p, b, &matching, named_alike));
    }
    for b in &base.profiled {
        if !new.profiled.iter().any(|p| p.fixture == b.fixture) {
            unpaired.push(Refused {
                fixture: b.fixture.clone(),
                reason: "the new build did not run it".into(),
            });
        }
    }
    Comparison {
        new,
        base,
        matching,
        compared,
        behaviour,
        unpaired,
    }
}

/// Frames are matched by [`frames_match`]'s rule.
fn matching(new: &Naming, base: &Naming) -> Matching {
    let (new, base) = (new.named_by(), base.named_by());
    if frames_match(new, base) {
        return Matching::Frames(new.kind());
    }
    match (new, base) {
        (NamedBy::Addresses, NamedBy::Addresses) => Matching::Totals(
            "both builds are stripped (code named by address, which moves between builds); give each with DWARF (`<name>.so.debug` beside it) or a symbol table".into(),
        ),
        (a, b) => Matching::Totals(format!(
            "the new build is named by {}, the base by {}; give both the same way (both with DWARF, or both with a symbol table)",
            a.kind(),
            b.kind()
        )),
    }
}

/// `named_alike`: both builds' code named the same way (both by address
/// included: there only the syscalls' and the VM's frames name a
/// category, alike in both), so every category compares.
fn compared_of(
    new: &Profiled,
    base: &Profiled,
    matching: &Matching,
    named_alike: bool,
) -> Compared {
    let by_frame = matches!(matching, Matching::Frames(_));
    Compared {
        fixture: new.fixture.clone(),
        fixtures: 1,
        instruction: new.group(),
        cost: CostChange::between(&new.profile, &base.profile, named_alike, by_frame),
    }
}

/// Per instruction: its fixtures' changes added up (CUs, categories and
/// frames), in name order.
pub fn by_instruction(compared: &[Compared]) -> Vec<Compared> {
    let mut groups: BTreeMap<&str, Vec<&Compared>> = BTreeMap::new();
    for c in compared {
        groups.entry(&c.instruction).or_default().push(c);
    }
    groups
        .into_iter()
        .map(|(instruction, fixtures)| Compared {
            fixture: fixtures
                .iter()
                .map(|c| c.fixture.as_str())
                .collect::<Vec<_>>()
                .join(", "),
            fixtures: fixtures.len(),
            instruction: instruction.to_string(),
            cost: CostChange::sum(fixtures.iter().map(|c| &c.cost)),
        })
        .collect()
}

/// The line a reviewer wants, for one fixture or instruction:
/// "`swap`: +312 CUs (+4.1%): checks +280 (`try_accounts → insert` +276),
/// decode +32".
pub fn headline(c: &Compared) -> String {
    c.cost.headline(&c.instruction)
}
