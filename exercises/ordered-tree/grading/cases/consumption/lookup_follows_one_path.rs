//! Proves consumption: `contains` and `get` rely on the order and follow one
//! path from the root, so in a balanced tree of 1023 keys (10 levels) a
//! lookup compares at most 20 keys. Scanning the set would compare hundreds.
use ordered_tree::OrderedSet;
use crate::support::{Counted, comparisons_in};

#[test]
fn lookups_compare_at_most_twice_per_level() {
    let set: OrderedSet<Counted> = crate::support::balanced_order(10).into_iter().map(Counted).collect();
    assert_eq!(set.len(), 1023);
    for key in (0..1023).chain(1023..1100) {
        let mut found = false;
        let used = comparisons_in(|| found = set.contains(&Counted(key)));
        assert_eq!(found, key < 1023, "contains({key}) gave the wrong answer");
        assert!(used <= 20, "contains({key}) compared {used} keys; following one path needs at most 20");
        let mut got = None;
        let used = comparisons_in(|| got = set.get(&Counted(key)).copied());
        assert_eq!(got, (key < 1023).then_some(Counted(key)), "get({key}) gave the wrong answer");
        assert!(used <= 20, "get({key}) compared {used} keys; following one path needs at most 20");
    }
}
