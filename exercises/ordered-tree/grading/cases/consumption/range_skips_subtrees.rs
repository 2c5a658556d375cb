//! Proves consumption: `range` yields exactly the keys within its bounds, in
//! order, for every kind of bound, and relies on the order to skip the
//! subtrees outside them instead of filtering the whole set.
use ordered_tree::OrderedSet;
use std::ops::Bound;
use crate::support::{Counted, comparisons_in};

fn keys(range: impl Iterator<Item = u32>) -> Vec<u32> {
    range.collect()
}

#[test]
fn range_yields_exactly_the_keys_within_bounds() {
    let set: OrderedSet<u32> = [8, 3, 12, 1, 5, 10, 14, 4, 6, 9].into_iter().collect();
    assert_eq!(keys(set.range(4..10).copied()), [4, 5, 6, 8, 9]);
    assert_eq!(keys(set.range(4..=10).copied()), [4, 5, 6, 8, 9, 10]);
    assert_eq!(keys(set.range(..5).copied()), [1, 3, 4]);
    assert_eq!(keys(set.range(11..).copied()), [12, 14]);
    assert_eq!(keys(set.range(..).copied()), [1, 3, 4, 5, 6, 8, 9, 10, 12, 14]);
    assert_eq!(keys(set.range((Bound::Excluded(5), Bound::Excluded(10))).copied()), [6, 8, 9]);
    assert_eq!(keys(set.range(20..30).copied()), Vec::<u32>::new());
    assert_eq!(keys(set.range(7..7).copied()), Vec::<u32>::new());

    let big: OrderedSet<Counted> = crate::support::balanced_order(10).into_iter().map(Counted).collect();
    let mut found = Vec::new();
    let used = comparisons_in(|| found = big.range(Counted(500)..Counted(505)).map(|key| key.0).collect());
    assert_eq!(found, [500, 501, 502, 503, 504]);
    assert!(used <= 60, "range() compared {used} keys for 5 results out of 1023; skipping subtrees needs far fewer");
}
