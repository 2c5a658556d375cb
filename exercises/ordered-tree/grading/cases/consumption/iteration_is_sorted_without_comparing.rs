//! Proves consumption: `iter` yields the keys in increasing order without
//! comparing a single key and without sorting: an in-order walk of an ordered
//! tree is already sorted. It also reports its exact length.
use ordered_tree::OrderedSet;
use crate::support::{Counted, comparisons_in};

#[test]
fn iteration_is_sorted_and_compares_nothing() {
    let keys = [41, 7, 93, 12, 58, 3, 77, 25, 64, 88, 1, 36];
    let set: OrderedSet<Counted> = keys.into_iter().map(Counted).collect();
    let mut seen = Vec::new();
    let used = comparisons_in(|| seen = set.iter().map(|key| key.0).collect());
    let mut sorted = keys.to_vec();
    sorted.sort();
    assert_eq!(seen, sorted, "iter() must yield every key once, in increasing order");
    assert_eq!(used, 0, "iter() compared {used} keys; the tree's order makes comparing unnecessary");
    assert_eq!(set.iter().len(), keys.len(), "iter() must know its exact length");
    assert_eq!((&set).into_iter().count(), keys.len());

    let empty: OrderedSet<Counted> = OrderedSet::new();
    assert_eq!(empty.iter().next(), None, "an empty set yields nothing");
}
