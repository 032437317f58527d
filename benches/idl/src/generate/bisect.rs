//! Bisection: which items of a program that cannot be made are the cause,
//! found by making halves of it, and taking them out with their reasons.

use crate::plan::NoRow;

/// The items among `items` (indices) that cannot be made, each with its
/// reason, found by halving: `attempt` tries a program of the items given.
/// `reason` is why all of `items` together could not be made. Where every
/// part can be made alone and only the whole cannot, each item gets the
/// whole's reason.
pub fn culprits(
    items: &[usize],
    reason: String,
    attempt: &mut dyn FnMut(&[usize]) -> Result<(), String>,
) -> Vec<(usize, String)> {
    if items.len() <= 1 {
        return items.iter().map(|i| (*i, reason.clone())).collect();
    }
    let (first, second) = items.split_at(items.len() / 2);
    let mut found = Vec::new();
    for half in [first, second] {
        if let Err(why) = attempt(half) {
            found.extend(culprits(half, why, attempt));
        }
    }
    if found.is_empty() {
        return items.iter().map(|i| (*i, reason.clone())).collect();
    }
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
