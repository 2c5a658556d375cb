//! Proves consumption: `iter` yields the keys in increasing order without
//! comparing a single key and without sorting: an in-order walk of an ordered
//! tree is already sorted. It also reports its exact length, before and as
//! it goes.
use crate::support::{keys_like, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const RANKS: [u32; 12] = [9, 2, 11, 3, 6, 1, 7, 4, 8, 10, 0, 5];

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    keys: Vec<u32>,
    compared: usize,
    exact_len: usize,
    /// `len()` of the iterator after each `next()`.
    len_as_it_goes: Vec<usize>,
    through_ref: usize,
    empty_first: Option<u32>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{Counted, comparisons_in};
    use ordered_tree::OrderedSet;

    let set: OrderedSet<Counted> = keys_like(seed, &RANKS, RANKS.len()).into_iter().map(Counted).collect();
    let (keys, compared) = comparisons_in(|| set.iter().map(|key| key.0).collect());
    let empty: OrderedSet<Counted> = OrderedSet::new();
    let mut iter = set.iter();
    let mut len_as_it_goes = Vec::new();
    while iter.next().is_some() {
        len_as_it_goes.push(iter.len());
    }
    Seen {
        keys,
        compared,
        exact_len: set.iter().len(),
        len_as_it_goes,
        through_ref: (&set).into_iter().count(),
        empty_first: empty.iter().next().map(|key| key.0),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let keys = keys_like(seed, &RANKS, RANKS.len());
    assert_eq!(seen.keys, sorted(&keys), "iter() must yield every key once, in increasing order");
    assert_eq!(
        seen.compared, 0,
        "iter() compared {} keys; the tree's order makes comparing unnecessary",
        seen.compared
    );
    assert_eq!(seen.exact_len, keys.len(), "iter() must know its exact length");
    let counting_down: Vec<usize> = (0..keys.len()).rev().collect();
    assert_eq!(
        seen.len_as_it_goes, counting_down,
        "after each next(), the iterator's len() must be the number of keys still to come"
    );
    assert_eq!(seen.through_ref, keys.len(), "`&set` iterates like set.iter()");
    assert_eq!(seen.empty_first, None, "an empty set yields nothing");
}
