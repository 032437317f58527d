//! Bisection: which items of a program that cannot be made are the cause,
//! found by making halves of it, and taking them out with their reasons.

use crate::plan::NoRow;

/// Tries a program of each part given (indices), all at once: of each,
/// whether it could be made, or why not.
pub type Attempt<'a> = dyn FnMut(&[&[usize]]) -> Vec<Result<(), String>> + 'a;

/// The items among `items` (indices) that cannot be made, each with its
/// reason, found by halving: `attempt` tries a program of each part given
/// (all the parts of one round at once, so that they can be made
/// together), and says of each whether it could be made, or why not.
/// `reason` is why all of `items` together could not be made. Where both
/// halves of a part can be made alone and only the part cannot, each of
/// its items gets the part's reason. In item order.
pub fn culprits(items: &[usize], reason: String, attempt: &mut Attempt) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    // The parts refused and not yet halved, each with why.
    let mut refused = vec![(items.to_vec(), reason)];
    while !refused.is_empty() {
        let (whole, split): (Vec<_>, Vec<_>) =
            refused.into_iter().partition(|(part, _)| part.len() <= 1);
        for (part, why) in whole {
            found.extend(part.into_iter().map(|i| (i, why.clone())));
        }
        let halves: Vec<&[usize]> = split
            .iter()
            .flat_map(|(part, _)| {
                let (first, second) = part.split_at(part.len() / 2);
                [first, second]
            })
            .collect();
        let outcomes = if halves.is_empty() {
            Vec::new()
        } else {
            attempt(&halves)
        };
        let mut next = Vec::new();
        for (k, (part, why)) in split.iter().enumerate() {
            let failing: Vec<(Vec<usize>, String)> = [2 * k, 2 * k + 1]
                .into_iter()
                .filter_map(|h| match &outcomes[h] {
                    Err(why) => Some((halves[h].to_vec(), why.clone())),
                    Ok(()) => None,
                })
                .collect();
            if failing.is_empty() {
                found.extend(part.iter().map(|i| (*i, why.clone())));
            }
            next.extend(failing);
        }
        refused = next;
    }
    found.sort_by_key(|(i, _)| *i);
    found
}

/// Removes the `found` items (indices into `items`) from `items`, each
/// recorded as `skip` makes it.
pub fn take_out<T>(
    items: &mut Vec<T>,
    mut found: Vec<(usize, String)>,
    skip: impl Fn(&T, String) -> NoRow,
    skipped: &mut Vec<NoRow>,
) {
    found.sort_by_key(|(i, _)| std::cmp::Reverse(*i));
    for (i, reason) in found {
        skipped.push(skip(&items[i], reason));
        items.remove(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eight items of which 2 and 5 cannot be made: the halves of every
    /// refused part are tried together, round by round, and each culprit
    /// keeps the reason its own part gave.
    #[test]
    fn each_round_tries_its_parts_at_once_and_finds_each_culprit() {
        let items: Vec<usize> = (0..8).collect();
        let mut rounds: Vec<Vec<Vec<usize>>> = Vec::new();
        let found = culprits(&items, "all".into(), &mut |parts| {
            rounds.push(parts.iter().map(|p| p.to_vec()).collect());
            let refused = |p: &&[usize]| p.iter().filter(|i| [2, 5].contains(*i)).count();
            let outcome = |p: &&[usize]| match refused(p) {
                0 => Ok(()),
                _ => Err(format!("{p:?}")),
            };
            parts.iter().map(outcome).collect()
        });
        assert_eq!(found, vec![(2, "[2]".into()), (5, "[5]".into())]);
        assert_eq!(
            rounds,
            vec![
                vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]],
                vec![vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]],
                vec![vec![2], vec![3], vec![4], vec![5]],
            ]
        );
    }

    /// Where every half can be made and only the whole cannot, every item
    /// of the whole gets its reason.
    #[test]
    fn a_part_whose_halves_both_build_is_refused_whole() {
        let found = culprits(&[0, 1, 2], "together".into(), &mut |parts| {
            parts.iter().map(|_| Ok(())).collect()
        });
        let all: Vec<(usize, String)> = (0..3).map(|i| (i, "together".into())).collect();
        assert_eq!(found, all);
    }
}
