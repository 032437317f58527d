//! Two profiles of the same call set side by side (a build before and
//! after a change): the change by category and by frame, each summing
//! exactly to the change in CUs. `make profile SO= BASE=` (a team's two
//! builds) and `make bench-diff` (this project's rows at two revisions)
//! write these, through their adapters ([`revisions`] here, and
//! `profile_so`'s `compare`).

pub mod revisions;

use std::collections::BTreeMap;

use serde::Serialize;

pub use crate::profile::frames::{NamedBy, self_cus_by_frame};
use crate::profile::{Profile, attribute::UNATTRIBUTED, categories::of_stack, frames::frame_name};

/// A frame's self CUs in both profiles: the frame and its caller
/// (`caller → frame`, as functions: generics dropped, since two builds'
/// instantiations differ where their types do), and its stack's
/// category.
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

    /// Its record in a `results.json`: both values and the change.
    pub fn record(&self) -> FrameRecord<'_> {
        FrameRecord {
            frame: &self.frame,
            category: &self.category,
            base: self.base,
            new: self.new,
            change: self.change(),
        }
    }
}

/// A [`FrameChange`] as `results.json` holds it.
#[derive(Serialize)]
pub struct FrameRecord<'a> {
    pub frame: &'a str,
    pub category: &'a str,
    pub base: u64,
    pub new: u64,
    pub change: i64,
}

/// One call's change in cost between two profiles (or a group of calls',
/// added up): its CUs in both, and the change by category and by frame,
/// each summing to the change in CUs. The one record every comparison
/// writes: `make profile BASE=` per fixture and instruction, `make
/// bench-diff` per row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CostChange {
    pub base_cus: u64,
    pub cus: u64,
    /// By category's name: the new profile's CUs less the base's, the
    /// non-zero ones.
    pub categories_change: BTreeMap<String, i64>,
    /// By frame (self CUs), largest change first; empty where the two
    /// profiles' frames are not matched ([`frames_match`]).
    pub frames_change: Vec<FrameChange>,
}

impl CostChange {
    /// `new` against `base`: by category (every category where both name
    /// their code alike, `named_alike`; see [`categories`]), and by frame
    /// where `by_frame`.
    pub fn between(new: &Profile, base: &Profile, named_alike: bool, by_frame: bool) -> Self {
        CostChange {
            base_cus: base.total(),
            cus: new.total(),
            categories_change: categories_change(new, base, named_alike),
            frames_change: match by_frame {
                true => frames_change(new, base),
                false => Vec::new(),
            },
        }
    }

    pub fn change(&self) -> i64 {
        self.cus as i64 - self.base_cus as i64
    }

    /// Several calls' changes added up: CUs, categories and frames.
    pub fn sum<'a>(changes: impl IntoIterator<Item = &'a CostChange>) -> Self {
        let mut sum = CostChange::default();
        let mut frames = Frames::new();
        for c in changes {
            sum.base_cus += c.base_cus;
            sum.cus += c.cus;
            for (name, change) in &c.categories_change {
                *sum.categories_change.entry(name.clone()).or_default() += change;
            }
            for f in &c.frames_change {
                let entry = frames
                    .entry((f.category.clone(), f.frame.clone()))
                    .or_default();
                entry.0 += f.base;
                entry.1 += f.new;
            }
        }
        sum.categories_change.retain(|_, change| *change != 0);
        sum.frames_change = changed(frames);
        sum
    }

    /// Its [`headline`], `name` naming the call.
    pub fn headline(&self, name: &str) -> String {
        headline(
            name,
            (self.base_cus, self.cus),
            &self.categories_change,
            &self.frames_change,
        )
    }

    /// Its record in a `results.json`, beside what names the call.
    pub fn record(&self) -> CostChangeRecord<'_> {
        CostChangeRecord {
            base_cus: self.base_cus,
            cus: self.cus,
            change: self.change(),
            categories_change: &self.categories_change,
            frames_change: self.frames_change.iter().map(FrameChange::record).collect(),
        }
    }
}

/// A [`CostChange`] as `results.json` holds it (flattened into the
/// record that names the call).
#[derive(Serialize)]
pub struct CostChangeRecord<'a> {
    pub base_cus: u64,
    pub cus: u64,
    pub change: i64,
    pub categories_change: &'a BTreeMap<String, i64>,
    pub frames_change: Vec<FrameRecord<'a>>,
}

/// How many frames a frames table names before "the rest".
pub const TOP_FRAMES: usize = 10;

/// A frames table (markdown, each line ended): its header naming the two
/// sides (`base`, `new`), the [`TOP_FRAMES`] largest changes (as
/// [`changed`] orders them), then the rest as one line.
pub fn frames_table(frames: &[FrameChange], (base, new): (&str, &str)) -> String {
    let mut out =
        format!("| frame | category | {base} | {new} | change |\n|---|---|---:|---:|---:|\n");
    for f in frames.iter().take(TOP_FRAMES) {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | {} |\n",
            f.frame.replace('|', "\\|"),
            f.category,
            f.base,
            f.new,
            signed(f.change())
        ));
    }
    let rest = &frames[frames.len().min(TOP_FRAMES)..];
    if !rest.is_empty() {
        let (base, new) = rest
            .iter()
            .fold((0, 0), |(b, n), f| (b + f.base, n + f.new));
        out.push_str(&format!(
            "| the rest ({} frames) | | {base} | {new} | {} |\n",
            rest.len(),
            signed(new as i64 - base as i64)
        ));
    }
    out
}

/// The one rule for matching two profiles' frames (`make profile BASE=`,
/// `make bench-diff`): by name, where both name their code the same way,
/// and not by address. Elsewhere only totals and categories compare.
pub fn frames_match(new: NamedBy, base: NamedBy) -> bool {
    new == base && new != NamedBy::Addresses
}

/// The category of code the two profiles do not name alike.
pub const CODE_NAMED_APART: &str = "code (named differently in the two builds)";

/// A stack's frame as a comparison keys it: its category, and its
/// innermost frame's function with its caller's.
fn frame_key(stack: &[String]) -> (String, String) {
    (of_stack(stack).name().to_string(), frame_name(stack))
}

/// Self CUs by frame, (category, frame) -> (base, new), summed over
/// several pairs of profiles (a `make profile SO=` instruction's fixtures).
type Frames = BTreeMap<(String, String), (u64, u64)>;

/// Adds `base`'s and `new`'s self CUs by frame into `frames`.
fn add_frames(frames: &mut Frames, new: &Profile, base: &Profile) {
    for (stack, &cus) in &base.stacks {
        frames.entry(frame_key(stack)).or_default().0 += cus;
    }
    for (stack, &cus) in &new.stacks {
        frames.entry(frame_key(stack)).or_default().1 += cus;
    }
}

/// The frames whose self CUs changed, largest change first (then by
/// name); they sum to the change.
fn changed(frames: Frames) -> Vec<FrameChange> {
    let mut out: Vec<FrameChange> = frames
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
            .then(a.category.cmp(&b.category))
    });
    out
}

/// The frames whose self CUs changed from `base` to `new`.
fn frames_change(new: &Profile, base: &Profile) -> Vec<FrameChange> {
    let mut frames = Frames::new();
    add_frames(&mut frames, new, base);
    changed(frames)
}

/// CUs by category's name; where the code is not named alike in the two
/// profiles (`named_alike` false), only the syscalls', the VM's and the
/// unattributed frames keep their category, the rest is
/// [`CODE_NAMED_APART`].
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

/// The change by category from `base` to `new`, the non-zero ones (they
/// sum to the change).
fn categories_change(new: &Profile, base: &Profile, named_alike: bool) -> BTreeMap<String, i64> {
    let (new, base) = (categories(new, named_alike), categories(base, named_alike));
    let mut out = BTreeMap::new();
    for name in new.keys().chain(base.keys()) {
        let change = new.get(name).copied().unwrap_or(0) as i64
            - base.get(name).copied().unwrap_or(0) as i64;
        if change != 0 {
            out.insert(name.clone(), change);
        }
    }
    out
}

/// `+312`, `-4`, `0`.
pub fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The change as a percentage of `base`: `+4.1%` (`new` where `base` is
/// 0).
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

/// The line a reviewer wants: "`swap`: +312 CUs (+4.1%): checks +280
/// (`try_accounts → insert` +276), decode +32": each category's change,
/// largest first, with its most changed frame.
fn headline(
    name: &str,
    (base_cus, cus): (u64, u64),
    categories_change: &BTreeMap<String, i64>,
    frames_change: &[FrameChange],
) -> String {
    let change = cus as i64 - base_cus as i64;
    let mut line = format!(
        "`{name}`: {} CUs ({})",
        signed(change),
        percent(change, base_cus)
    );
    let mut categories: Vec<(&String, &i64)> = categories_change.iter().collect();
    categories.sort_by(|a, b| b.1.abs().cmp(&a.1.abs()).then(a.0.cmp(b.0)));
    let parts: Vec<String> = categories
        .into_iter()
        .map(
            |(category, change)| match frames_change.iter().find(|f| &f.category == category) {
                Some(f) => format!(
                    "{category} {} (`{}` {})",
                    signed(*change),
                    f.frame,
                    signed(f.change())
                ),
                None => format!("{category} {}", signed(*change)),
            },
        )
        .collect();
    if !parts.is_empty() {
        line.push_str(": ");
        line.push_str(&parts.join(", "));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(stacks: &[(&[&str], u64)]) -> Profile {
        Profile {
            stacks: stacks
                .iter()
                .map(|(frames, cus)| (frames.iter().map(|f| f.to_string()).collect(), *cus))
                .collect(),
        }
    }

    /// Frames match by name where both profiles name their code alike,
    /// never by address.
    #[test]
    fn frames_match_where_both_are_named_alike_and_not_by_address() {
        use NamedBy::*;
        assert!(frames_match(Dwarf, Dwarf));
        assert!(frames_match(Symbols, Symbols));
        assert!(!frames_match(Addresses, Addresses));
        assert!(!frames_match(Dwarf, Symbols));
        assert!(!frames_match(Symbols, Addresses));
    }

    /// Frames are matched by function, generics dropped; the changes by
    /// frame and by category each sum to the change in CUs.
    #[test]
    fn the_changes_by_frame_and_by_category_sum_to_the_change() {
        let base = profile(&[
            (&["p", "entrypoint", "dispatch<A>", "decode<A>"], 40),
            (&["p", "entrypoint", "dispatch<A>"], 10),
            (&["p", "entrypoint", "syscall:sol_log_"], 100),
        ]);
        let new = profile(&[
            (&["p", "entrypoint", "dispatch<B>", "decode<B>"], 25),
            (&["p", "entrypoint", "dispatch<B>"], 12),
            (&["p", "entrypoint", "syscall:sol_log_"], 100),
        ]);
        let frames = frames_change(&new, &base);
        let total: i64 = frames.iter().map(FrameChange::change).sum();
        assert_eq!(total, new.total() as i64 - base.total() as i64);
        assert_eq!(frames[0].frame, "dispatch → decode");
        assert_eq!((frames[0].base, frames[0].new), (40, 25));
        let by_category = categories_change(&new, &base, true);
        assert_eq!(by_category.values().sum::<i64>(), total);
        assert!(!by_category.contains_key("logging"), "{by_category:?}");
        // Named apart: the code in one line, the syscalls still theirs.
        let apart = categories(&new, false);
        assert_eq!(apart[CODE_NAMED_APART], 37);
        assert_eq!(apart.values().sum::<u64>(), new.total());
        let line = headline("swap", (base.total(), new.total()), &by_category, &frames);
        assert!(line.starts_with("`swap`: -13 CUs (-8.7%): "), "{line}");
    }
}
