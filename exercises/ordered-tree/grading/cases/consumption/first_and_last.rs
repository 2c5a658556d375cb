//! Proves consumption: `first` and `last` find the smallest and largest key
//! by walking one edge of the tree, and say `None` only for an empty set;
//! `is_empty` says which sets are empty.
use crate::support::{balanced_order, keys_like};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `is_empty()` of an empty set, then of the full one.
    is_empty: (bool, bool),
    empty: (Option<u32>, Option<u32>),
    ends: (Option<u32>, Option<u32>),
    compared: usize,
}

fn keys(seed: Seed) -> Vec<u32> {
    keys_like(seed, &balanced_order(8), 255)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{Counted, comparisons_in};
    use ordered_tree::OrderedSet;

    let empty: OrderedSet<u32> = OrderedSet::new();
    let set: OrderedSet<Counted> = keys(seed).into_iter().map(Counted).collect();
    let (ends, compared) = comparisons_in(|| (set.first().map(|k| k.0), set.last().map(|k| k.0)));
    Seen {
        is_empty: (empty.is_empty(), set.is_empty()),
        empty: (empty.first().copied(), empty.last().copied()),
        ends,
        compared,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    assert_eq!(seen.is_empty, (true, false), "is_empty() must be true for an empty set only");
    assert_eq!(seen.empty, (None, None), "an empty set has no first or last key");
    let keys = keys(seed);
    let (smallest, largest) = (keys.iter().min().copied(), keys.iter().max().copied());
    assert_eq!(seen.ends, (smallest, largest), "first() and last() must give the smallest and largest keys");
    assert_eq!(
        seen.compared, 0,
        "first() and last() compared {} keys; the smallest key is simply leftmost",
        seen.compared
    );
}
