//! Where each function of the linked program lies in its DWARF's address
//! space.
//!
//! The DWARF describes the text before the linker's dead-function pass,
//! which removes whole functions and moves the code after them. The
//! program's functions are known from its text alone (the entry, every
//! call's target and every function whose address it takes,
//! [`Functions`]), and not all of them: a function that no call targets
//! (the linker kept a formatter after a removed panic handler) runs on
//! the function before it. And some code has rows in the line table but
//! no subprogram. So a function is not one subprogram of its length, but
//! a stretch of the DWARF's address space that starts where a subprogram
//! or code without one starts and ends where one ends (or inside code
//! without one): it never cuts a subprogram.
//!
//! [`place`] chooses, for the functions in order, stretches in ascending
//! order that cover the most subprogram slots (a coincidental match is
//! short; the true alignment covers nearly all of them), then with the
//! most ends on a boundary, then moved least; the shift never falls,
//! since the linker only removes code. The functions it leaves
//! out (code that has only line rows, or a function the linker removed
//! another from the middle of) lie between two placed ones; their room
//! there is either exactly theirs (nothing was removed: the code is where
//! it was), or larger by one stretch of whole code that can be cut out
//! at only one place without cutting a subprogram or leaving a function
//! start inside one. Anything else is left unplaced, never guessed.

use super::super::symbols::Functions;

/// The DWARF's address space, in instruction slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Concrete subprograms' [start, end), ascending, none overlapping.
    subprograms: Vec<(usize, usize)>,
    /// Where the described code ends.
    end: usize,
    /// Slots covered by the subprograms before each one.
    covered_before: Vec<usize>,
}

impl Layout {
    /// `subprograms` (any order; one overlapping an earlier one is
    /// dropped) in code ending at `end` (at least their last end).
    pub fn new(mut subprograms: Vec<(usize, usize)>, end: usize) -> Self {
        subprograms.sort_unstable();
        let mut kept: Vec<(usize, usize)> = Vec::with_capacity(subprograms.len());
        for (start, stop) in subprograms {
            if stop > start && kept.last().is_none_or(|&(_, last)| start >= last) {
                kept.push((start, stop));
            }
        }
        let end = kept.last().map_or(end, |&(_, last)| end.max(last));
        let mut covered_before = Vec::with_capacity(kept.len() + 1);
        let mut covered = 0;
        for &(start, stop) in &kept {
            covered_before.push(covered);
            covered += stop - start;
        }
        covered_before.push(covered);
        Layout {
            subprograms: kept,
            end,
            covered_before,
        }
    }

    /// Whether a stretch may end (or start) at `at`: no subprogram holds
    /// it strictly inside.
    fn is_cut(&self, at: usize) -> bool {
        if at > self.end {
            return false;
        }
        let after = self.subprograms.partition_point(|&(start, _)| start < at);
        after == 0 || self.subprograms[after - 1].1 <= at
    }

    /// Whether `at` is a subprogram's start or end, or an end of the
    /// described code.
    fn is_boundary(&self, at: usize) -> bool {
        at == 0
            || at == self.end
            || self
                .subprograms
                .binary_search_by(|&(start, _)| start.cmp(&at))
                .is_ok()
            || self
                .subprograms
                .binary_search_by(|&(_, stop)| stop.cmp(&at))
                .is_ok()
    }

    /// Where a stretch may start: each subprogram's start, and each start
    /// of code no subprogram covers.
    fn starts(&self) -> Vec<usize> {
        let mut starts = Vec::with_capacity(2 * self.subprograms.len() + 1);
        let mut previous_end = 0;
        for &(start, stop) in &self.subprograms {
            if previous_end < start {
                starts.push(previous_end);
            }
            starts.push(start);
            previous_end = stop;
        }
        if previous_end < self.end {
            starts.push(previous_end);
        }
        starts
    }

    /// The subprogram slots inside [start, end), both cuts.
    fn covered(&self, start: usize, end: usize) -> usize {
        let first = self.subprograms.partition_point(|&(s, _)| s < start);
        let last = self.subprograms.partition_point(|&(s, _)| s < end);
        self.covered_before[last] - self.covered_before[first]
    }
}

/// A chain's worth: subprogram slots covered, ends on a boundary, then
/// (negated) how far its functions moved.
type Score = (usize, usize, i64);

/// One function at one place.
struct Candidate {
    function: usize,
    at: usize,
    score: Score,
    previous: Option<usize>,
}

/// Each final slot's DWARF slot, or `None` where its function has no
/// place there.
pub fn place(functions: &Functions, layout: &Layout) -> Vec<Option<usize>> {
    let extents = functions.extents();
    let starts = layout.starts();
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut best = MaxTree::new(layout.end + 1);
    for (function, &(start, len)) in extents.iter().enumerate() {
        let first = candidates.len();
        for &at in starts.iter().filter(|&&at| at >= start) {
            let end = at + len;
            if len == 0 || !layout.is_cut(end) {
                continue;
            }
            let covered = layout.covered(at, end);
            if covered == 0 {
                continue;
            }
            // The linker only removes code: the shift never falls.
            let (before, previous) = best.max_upto(at - start);
            let clean = usize::from(layout.is_boundary(end));
            let score = (
                before.0 + covered,
                before.1 + clean,
                before.2 - (at - start) as i64,
            );
            candidates.push(Candidate {
                function,
                at,
                score,
                previous,
            });
        }
        for (index, candidate) in candidates.iter().enumerate().skip(first) {
            best.raise(candidate.at - start, candidate.score, index);
        }
    }
    let mut slots = vec![None; functions.slots];
    let mut placed = vec![false; extents.len()];
    let (_, mut next) = best.max_upto(layout.end);
    while let Some(index) = next {
        let candidate = &candidates[index];
        let (start, len) = extents[candidate.function];
        for offset in 0..len {
            slots[start + offset] = Some(candidate.at + offset);
        }
        placed[candidate.function] = true;
        next = candidate.previous;
    }
    fill_rooms(&extents, &placed, layout, &mut slots);
    slots
}

/// Places each run of unplaced functions between placed neighbours (or
/// the text's ends) where its room in the DWARF is exactly its own, or
/// larger by one stretch of whole code that fits at one place only.
fn fill_rooms(
    extents: &[(usize, usize)],
    placed: &[bool],
    layout: &Layout,
    slots: &mut [Option<usize>],
) {
    let mut i = 0;
    while i < extents.len() {
        if placed[i] {
            i += 1;
            continue;
        }
        let run = i;
        while i < extents.len() && !placed[i] {
            i += 1;
        }
        // The room: from the end of the function before (final, DWARF) to
        // the start of the one after.
        let (final_from, dwarf_from) = match run.checked_sub(1) {
            Some(k) => {
                let (start, len) = extents[k];
                let last = slots[start + len - 1].expect("placed");
                (start + len, last + 1)
            }
            None => (0, 0),
        };
        let (final_to, dwarf_to) = match extents.get(i) {
            Some(&(start, _)) => (start, slots[start].expect("placed")),
            None => (slots.len(), layout.end),
        };
        let Some(removed) = (dwarf_to.checked_sub(dwarf_from))
            .and_then(|dwarf| dwarf.checked_sub(final_to - final_from))
        else {
            continue;
        };
        let starts: Vec<usize> = extents[run..i]
            .iter()
            .map(|&(s, _)| s - final_from)
            .collect();
        // Where the removed stretch may start, as an offset into the room.
        let fits = |cut: usize| {
            let at = dwarf_from + cut;
            (removed == 0 || (layout.is_boundary(at) && layout.is_boundary(at + removed)))
                && starts.iter().all(|&s| {
                    let mapped = dwarf_from + s + if s >= cut { removed } else { 0 };
                    layout.is_cut(mapped)
                })
        };
        let cuts: Vec<usize> = if removed == 0 {
            vec![0]
        } else {
            (0..=final_to - final_from)
                .filter(|&cut| fits(cut))
                .collect()
        };
        if let [cut] = cuts[..] {
            for (offset, slot) in slots[final_from..final_to].iter_mut().enumerate() {
                *slot = Some(dwarf_from + offset + if offset >= cut { removed } else { 0 });
            }
        }
    }
}

/// A prefix maximum over shifts (a Fenwick tree): the best score of a
/// chain whose last function moved at most so far, and its last
/// candidate.
struct MaxTree {
    nodes: Vec<(Score, Option<usize>)>,
}

impl MaxTree {
    fn new(positions: usize) -> Self {
        MaxTree {
            nodes: vec![((0, 0, 0), None); positions + 1],
        }
    }

    fn raise(&mut self, position: usize, score: Score, candidate: usize) {
        let mut i = position + 1;
        while i < self.nodes.len() {
            if score > self.nodes[i].0 {
                self.nodes[i] = (score, Some(candidate));
            }
            i += i.isolate_lowest_one();
        }
    }

    fn max_upto(&self, position: usize) -> (Score, Option<usize>) {
        let mut i = (position + 1).min(self.nodes.len() - 1);
        let mut best = ((0, 0, 0), None);
        while i > 0 {
            if self.nodes[i].0 > best.0 {
                best = self.nodes[i];
            }
            i -= i.isolate_lowest_one();
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::{Functions, Layout, place};

    /// Where each function's first slot was placed.
    fn placed(starts: &[usize], slots: usize, layout: &Layout) -> Vec<Option<usize>> {
        let functions = Functions {
            starts: starts.to_vec(),
            entry: starts[0],
            slots,
        };
        let placed = place(&functions, layout);
        starts.iter().map(|&start| placed[start]).collect()
    }

    /// A function with no subprogram of its length (the 108-slot one) is
    /// placed where its neighbours leave exactly its room, and does not
    /// push the later ones out of line, though a subprogram of its length
    /// lies far ahead among dead code.
    #[test]
    fn functions_align_with_their_subprograms_in_order() {
        // Final lengths 9, 128, 108, 374; the DWARF shifted by 9 after
        // the entry, with dead code between, 108 slots of line rows
        // alone at 146, and a 108-slot subprogram at the end.
        let layout = Layout::new(
            vec![
                (0, 5),
                (5, 14),
                (18, 146),
                (254, 628),
                (2959, 3278),
                (6000, 6108),
            ],
            6108,
        );
        assert_eq!(
            placed(&[0, 9, 137, 245], 619, &layout),
            vec![Some(5), Some(18), Some(146), Some(254)]
        );
    }

    /// A function that runs on over one reached only by a pointer (a
    /// formatter, never called in the trace) spans both subprograms.
    #[test]
    fn a_function_may_span_subprograms_the_text_does_not_split() {
        let layout = Layout::new(
            vec![(0, 9), (9, 14), (14, 2592), (2592, 2696), (2800, 3000)],
            3000,
        );
        assert_eq!(
            placed(&[0, 9, 14, 2696], 2896, &layout),
            vec![Some(0), Some(9), Some(14), Some(2800)]
        );
    }

    /// Code with line rows and no subprogram, before a subprogram, in one
    /// function; three functions side by side in such code, placed by
    /// their room.
    #[test]
    fn code_without_a_subprogram_is_placed_with_its_neighbours() {
        // 10..25 holds three 5-slot functions, 40..148 108 slots kept
        // with the subprogram after them; 431..500 was removed.
        let layout = Layout::new(vec![(0, 10), (25, 40), (148, 431), (500, 520)], 520);
        assert_eq!(
            placed(&[0, 10, 15, 20, 25, 40, 431], 451, &layout),
            vec![
                Some(0),
                Some(10),
                Some(15),
                Some(20),
                Some(25),
                Some(40),
                Some(500)
            ]
        );
    }

    /// Where the room is not exact (something was removed beside it), a
    /// function with no subprogram is left unplaced rather than guessed.
    #[test]
    fn an_inexact_room_is_not_guessed() {
        let layout = Layout::new(vec![(0, 10), (30, 40)], 40);
        assert_eq!(
            placed(&[0, 10, 15], 25, &layout),
            vec![Some(0), None, Some(30)]
        );
    }

    /// A function the linker removed another from the middle of (the
    /// panic handler, before a formatter reached only by pointer) is
    /// placed in two parts, where only one cut fits.
    #[test]
    fn a_function_with_code_removed_inside_is_placed_in_two_parts() {
        let layout = Layout::new(
            vec![(0, 94), (94, 112), (112, 180), (180, 832), (832, 838)],
            838,
        );
        let functions = Functions {
            starts: vec![0, 814],
            entry: 0,
            slots: 820,
        };
        let placed = place(&functions, &layout);
        assert_eq!(placed[93], Some(93));
        assert_eq!(placed[94], Some(112));
        assert_eq!(placed[813], Some(831));
        assert_eq!(placed[814], Some(832));
    }
}
