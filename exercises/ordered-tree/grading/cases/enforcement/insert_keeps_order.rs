//! Proves enforcement: `insert` puts every key where the order says, keeps
//! `len` right, and refuses a key that is already present.
use ordered_tree::OrderedSet;

#[test]
fn every_insert_keeps_the_tree_ordered() {
    let mut set = OrderedSet::new();
    assert!(set.is_empty());
    for key in [50, 30, 70, 20, 40, 60, 80, 35, 45, 65, 10, 90, 55] {
        assert!(set.insert(key), "inserting the new key {key} must return true");
        crate::support::assert_ordered(&set);
    }
    assert_eq!(set.len(), 13);
    assert!(!set.insert(40), "inserting a key that is present must return false");
    assert!(!set.insert(50), "inserting the root's key again must return false");
    assert_eq!(set.len(), 13, "a refused insert must not change len()");
    crate::support::assert_ordered(&set);

    // Ascending and descending runs build the tallest trees: still ordered.
    let mut tall: OrderedSet<u16> = OrderedSet::new();
    for key in (0..500).chain((500..1000).rev()) {
        tall.insert(key);
    }
    crate::support::assert_ordered(&tall);
    assert_eq!(tall.len(), 1000);
}
