//! Proves consumption: `contains` and `get` rely on the order and follow one
//! path from the root, so in a balanced tree of 1023 keys (10 levels) a
//! lookup compares at most 20 keys. Scanning the set would compare hundreds.
#[path = "../support.rs"]
mod support;

use ordered_tree::OrderedSet;
use support::{Counted, comparisons_in};

fn main() {
    let set: OrderedSet<Counted> = support::balanced_order(10).into_iter().map(Counted).collect();
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
