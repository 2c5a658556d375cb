//! Proves consumption: a `NonEmptySet` relies on being non-empty, so `min`
//! and `max` return `&T` directly; converting a set checks once, gives an
//! empty set back unchanged, and round-trips without losing keys.
use crate::support::{TreeView, assert_ordered, keys_like, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Ranks: the first key, then five more (the smallest and largest among
/// them), then rank 2 again; rank 6 is never inserted.
const FIRST: u32 = 3;
const MORE: [u32; 5] = [1, 4, 2, 5, 0];
const RANKS: usize = 7;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    first_ends: (u32, u32),
    added: Vec<bool>,
    again: bool,
    ends: (u32, u32),
    len: usize,
    contains: (bool, bool),
    keys: Vec<u32>,
    back: TreeView,
    again_min: Option<u32>,
    empty_converted: bool,
    empty_back_is_empty: bool,
}

fn keys(seed: Seed) -> (u32, Vec<u32>, u32) {
    let first = keys_like(seed, &[FIRST], RANKS)[0];
    let absent = keys_like(seed, &[6], RANKS)[0];
    (first, keys_like(seed, &MORE, RANKS), absent)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::view;
    use ordered_tree::{NonEmptySet, OrderedSet};

    let (first, more, absent) = keys(seed);
    let mut set = NonEmptySet::new(first);
    let first_ends = (*set.min(), *set.max());
    let added = more.iter().map(|&key| set.insert(key)).collect();
    let again = set.insert(more[2]);
    // The types are the point: `min` and `max` give `&u32`, no `Option`.
    let smallest: &u32 = set.min();
    let largest: &u32 = set.max();
    let ends = (*smallest, *largest);
    let len = set.len().get();
    let contains = (set.contains(&more[0]), set.contains(&absent));
    let keys = set.iter().copied().collect();
    let back: OrderedSet<u32> = set.into_set();
    let back_view = view(&back);
    let again_min = back.into_non_empty().ok().map(|again| *again.min());
    let empty: OrderedSet<u32> = OrderedSet::new();
    let (empty_converted, empty_back_is_empty) = match empty.into_non_empty() {
        Ok(_) => (true, false),
        Err(empty) => (false, empty.is_empty()),
    };
    Seen {
        first_ends,
        added,
        again,
        ends,
        len,
        contains,
        keys,
        back: back_view,
        again_min,
        empty_converted,
        empty_back_is_empty,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let (first, more, _) = keys(seed);
    let mut all = more.clone();
    all.push(first);
    let all = sorted(&all);
    assert_eq!(seen.first_ends, (first, first), "a set of one key has it as min and max");
    assert!(seen.added.iter().all(|&added| added), "inserting new keys must return true");
    assert!(!seen.again, "inserting a key that is present must return false");
    assert_eq!(seen.ends, (all[0], all[all.len() - 1]), "min() and max() are the smallest and largest keys");
    assert_eq!(seen.len, all.len());
    assert_eq!(seen.contains, (true, false), "contains() must find a key that is there, and only such keys");
    assert_eq!(seen.keys, all, "iter() yields the keys in order");
    assert_eq!(assert_ordered(&seen.back), all, "into_set() keeps every key, in order");
    assert_eq!(seen.again_min, Some(all[0]), "a set with keys converts back into a NonEmptySet");
    assert!(!seen.empty_converted, "an empty set must not convert into a NonEmptySet");
    assert!(seen.empty_back_is_empty, "the empty set comes back unchanged");
}
