//! Proves consumption: `first` and `last` find the smallest and largest key
//! by walking one edge of the tree, and say `None` only for an empty set.
use ordered_tree::OrderedSet;
use crate::support::{Counted, comparisons_in};

#[test]
fn first_and_last_walk_one_edge() {
    let empty: OrderedSet<u32> = OrderedSet::new();
    assert_eq!(empty.first(), None);
    assert_eq!(empty.last(), None);

    let set: OrderedSet<Counted> = crate::support::balanced_order(8).into_iter().map(Counted).collect();
    let mut ends = (None, None);
    let used = comparisons_in(|| ends = (set.first().copied(), set.last().copied()));
    assert_eq!(ends, (Some(Counted(0)), Some(Counted(254))));
    assert_eq!(used, 0, "first() and last() compared {used} keys; the smallest key is simply leftmost");
}
