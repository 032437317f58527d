//! The two runs side by side: each fixture both builds ran, its behaviour
//! compared (result and resulting accounts), and where it is the same, its
//! change in CUs by category and by frame.

use std::collections::BTreeMap;

use benches::profile::{
    Profile,
    attribute::UNATTRIBUTED,
    categories::{Category, function_name, of_stack},
};

use crate::{Naming, Profiled, Refused, Run, replay};

/// The two runs and what they show.
pub struct Diff {
    pub new: Run,
    pub base: Run,
    pub matching: Matching,
    /// The fixtures both builds ran with the same behaviour, in file order.
    pub compared: Vec<Compared>,
    pub behaviour: Vec<BehaviourChange>,
    /// Fixtures one build ran and the other did not (refused, or not run).
    pub unpaired: Vec<Refused>,
}

impl Diff {
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

/// One fixture's change in cost.
#[derive(Clone, Debug)]
pub struct Compared {
    pub fixture: String,
    pub instruction: String,
    pub base_cus: u64,
    pub cus: u64,
    /// By category: the new build's CUs less the base's, non-zero ones
    /// (they sum to the change).
    pub categories_change: BTreeMap<String, i64>,
    /// By frame (self CUs), each with both values, largest change first
    /// (they sum to the change); empty where frames are not matched.
    pub frames_change: Vec<FrameChange>,
}

impl Compared {
    pub fn change(&self) -> i64 {
        self.cus as i64 - self.base_cus as i64
    }
}

/// A frame's self CUs in both builds: the frame and its caller
/// (`caller → frame`), and the category of its stack.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrameChange {
    pub category: String,
    pub frame: String,
    pub base: u64,
    pub new: u64,
}

impl FrameChange {
    pub fn change(&self) -> i64 {
        self.new as i64 - self.base as i64
    }
}

/// A fixture the two builds answer differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BehaviourChange {
    pub fixture: String,
    pub instruction: String,
    pub differs: String,
}

/// The category of code the two namings do not both name.
pub const CODE_NAMED_APART: &str = "code (named differently in the two builds)";

/// Sets `new` against `base`.
pub fn compare(new: Run, base: Run) -> Diff {
    let matching = matching(&new.naming, &base.naming);
    let named_alike = new.naming.kind() == base.naming.kind();
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
    Diff {
        new,
        base,
        matching,
        compared,
        behaviour,
        unpaired,
    }
}

/// Frames are matched where both builds are named the same way, by name.
fn matching(new: &Naming, base: &Naming) -> Matching {
    match (new.kind(), base.kind()) {
        (a, b) if a == b && a != "addresses" => Matching::Frames(a),
        ("addresses", "addresses") => Matching::Totals(
            "both builds are stripped (code named by address, which moves between builds); give each with DWARF (`<name>.so.debug` beside it) or a symbol table".into(),
        ),
        (a, b) => Matching::Totals(format!(
            "the new build is named by {a}, the base by {b}; give both the same way (both with DWARF, or both with a symbol table)"
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
    let (new_categories, base_categories) = (
        categories(&new.profile, named_alike),
        categories(&base.profile, named_alike),
    );
    let mut categories_change = BTreeMap::new();
    for name in new_categories.keys().chain(base_categories.keys()) {
        let change = new_categories.get(name).copied().unwrap_or(0) as i64
            - base_categories.get(name).copied().unwrap_or(0) as i64;
        if change != 0 {
            categories_change.insert(name.clone(), change);
        }
    }
    let frames_change = match matching {
        Matching::Frames(_) => frames_change(&new.profile, &base.profile),
        Matching::Totals(_) => Vec::new(),
    };
    Compared {
        fixture: new.fixture.clone(),
        instruction: new.group(),
        base_cus: base.cus,
        cus: new.cus,
        categories_change,
        frames_change,
    }
}

/// CUs by category's name; where the code is not named alike in the two
/// builds, only the syscalls', the VM's and the unattributed frames keep
/// their category, the rest is [`CODE_NAMED_APART`].
fn categories(profile: &Profile, named_alike: bool) -> BTreeMap<String, u64> {
    let mut out = BTreeMap::new();
    for (stack, &cus) in &profile.stacks {
        let leaf = stack.last().map(String::as_str).unwrap_or("");
        let name = if named_alike
            || leaf.starts_with("syscall:")
            || leaf.starts_with("vm:")
            || leaf == UNATTRIBUTED
        {
            of_stack(stack).name().to_string()
        } else {
            CODE_NAMED_APART.to_string()
        };
        *out.entry(name).or_default() += cus;
    }
    out
}

/// A stack's frame as the diff keys it: its innermost frame's function
/// with its caller's (generics dropped: the two builds' instantiations
/// differ where their types do), and its category.
fn frame_key(stack: &[String]) -> (String, String) {
    let category: Category = of_stack(stack);
    let frame = match stack {
        [] => String::new(),
        [only] => function_name(only).to_string(),
        [.., caller, leaf] => format!("{} → {}", function_name(caller), function_name(leaf)),
    };
    (category.name().to_string(), frame)
}

/// Self CUs by frame in both profiles, the changed ones, largest change
/// first (then by name).
pub fn frames_change(new: &Profile, base: &Profile) -> Vec<FrameChange> {
    let mut both: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
    for (stack, &cus) in &base.stacks {
        both.entry(frame_key(stack)).or_default().0 += cus;
    }
    for (stack, &cus) in &new.stacks {
        both.entry(frame_key(stack)).or_default().1 += cus;
    }
    let mut out: Vec<FrameChange> = both
        .into_iter()
        .filter(|(_, (base, new))| base != new)
        .map(|((category, frame), (base, new))| FrameChange {
            category,
            frame,
            base,
            new,
        })
        .collect();
    out.sort_by(|a, b| {
        b.change()
            .abs()
            .cmp(&a.change().abs())
            .then(a.frame.cmp(&b.frame))
    });
    out
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
        .map(|(instruction, fixtures)| {
            let mut categories_change: BTreeMap<String, i64> = BTreeMap::new();
            let mut frames: BTreeMap<(String, String), (u64, u64)> = BTreeMap::new();
            for c in &fixtures {
                for (name, change) in &c.categories_change {
                    *categories_change.entry(name.clone()).or_default() += change;
                }
                for f in &c.frames_change {
                    let entry = frames
                        .entry((f.category.clone(), f.frame.clone()))
                        .or_default();
                    entry.0 += f.base;
                    entry.1 += f.new;
                }
            }
            categories_change.retain(|_, change| *change != 0);
            let mut frames_change: Vec<FrameChange> = frames
                .into_iter()
                .filter(|(_, (base, new))| base != new)
                .map(|((category, frame), (base, new))| FrameChange {
                    category,
                    frame,
                    base,
                    new,
                })
                .collect();
            frames_change.sort_by(|a, b| {
                b.change()
                    .abs()
                    .cmp(&a.change().abs())
                    .then(a.frame.cmp(&b.frame))
            });
            Compared {
                fixture: fixtures
                    .iter()
                    .map(|c| c.fixture.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                instruction: instruction.to_string(),
                base_cus: fixtures.iter().map(|c| c.base_cus).sum(),
                cus: fixtures.iter().map(|c| c.cus).sum(),
                categories_change,
                frames_change,
            }
        })
        .collect()
}

/// The line a reviewer wants: "`swap`: +312 CUs (+4.1%): checks +280
/// (`try_accounts` → `HashSet::insert` +276), decode +32".
pub fn headline(c: &Compared) -> String {
    let mut line = format!(
        "`{}`: {} CUs ({})",
        c.instruction,
        signed(c.change()),
        percent(c.change(), c.base_cus)
    );
    let mut categories: Vec<(&String, &i64)> = c.categories_change.iter().collect();
    categories.sort_by(|a, b| b.1.abs().cmp(&a.1.abs()).then(a.0.cmp(b.0)));
    let parts: Vec<String> = categories
        .into_iter()
        .map(|(name, change)| {
            let top = c
                .frames_change
                .iter()
                .find(|f| &f.category == name && f.change() != 0);
            match top {
                Some(f) => format!(
                    "{name} {} (`{}` {})",
                    signed(*change),
                    f.frame,
                    signed(f.change())
                ),
                None => format!("{name} {}", signed(*change)),
            }
        })
        .collect();
    if !parts.is_empty() {
        line.push_str(": ");
        line.push_str(&parts.join(", "));
    }
    line
}

/// `+312`, `-4`, `0`.
pub fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The change as a percentage of `base`: `+4.1%`.
pub fn percent(change: i64, base: u64) -> String {
    if base == 0 {
        return "new".into();
    }
    let p = 100.0 * change as f64 / base as f64;
    if p > 0.0 {
        format!("+{p:.1}%")
    } else {
        format!("{p:.1}%")
    }
}
