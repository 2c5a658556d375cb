//! Proves enforcement: `remove` takes out exactly the key asked for (a leaf,
//! a node with one child, a node with two, the root) and leaves the rest of
//! the tree ordered, with `len` right.
use ordered_tree::OrderedSet;

#[test]
fn every_remove_keeps_the_tree_ordered() {
    let keys = [50, 30, 70, 20, 40, 60, 80, 35, 45, 65, 10];
    let mut set: OrderedSet<i32> = keys.into_iter().collect();
    crate::support::assert_ordered(&set);

    // 10 is a leaf, 20 then has one child, 30 has two, 50 is the root.
    for (key, left) in [(10, 10), (20, 9), (30, 8), (50, 7), (70, 6)] {
        assert_eq!(set.remove(&key), Some(key), "remove({key}) must return the key");
        crate::support::assert_ordered(&set);
        assert_eq!(set.len(), left);
        assert!(!set.contains(&key), "{key} must be gone after remove({key})");
    }
    assert_eq!(set.remove(&999), None, "removing an absent key returns None");
    assert_eq!(set.len(), 6, "removing an absent key must not change len()");
    for key in [35, 40, 45, 60, 65, 80] {
        assert!(set.contains(&key), "{key} must survive removals of other keys");
    }
    for key in [35, 40, 45, 60, 65, 80] {
        assert_eq!(set.remove(&key), Some(key));
        crate::support::assert_ordered(&set);
    }
    assert!(set.is_empty(), "a set whose keys are all removed is empty");
    assert_eq!(set.root_node().map(|node| *node.key()), None);
}
