//! Proves enforcement: `remove` takes out exactly the key asked for (a leaf,
//! a node with one child, a node with two, the root) and leaves the rest of
//! the tree ordered, with `len` right.
use crate::support::{TreeView, assert_ordered, keys_like, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Ranks of the keys inserted (the root is rank 6; rank 0 is a leaf).
const INSERTS: [u32; 11] = [6, 2, 9, 1, 4, 7, 10, 3, 5, 8, 0];
/// Rank 11 is never inserted.
const RANKS: usize = 12;
/// Ranks removed, in order: a leaf (0), then a node with one child (1),
/// one with two (2), the root (6), then another node with two (9).
const REMOVED: [u32; 5] = [0, 1, 2, 6, 9];

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    start: TreeView,
    /// What each removal returned, and the tree after it.
    removals: Vec<(Option<u32>, TreeView)>,
    absent: Option<u32>,
    after_absent: TreeView,
    /// Then every key left is removed, in increasing order.
    rest: Vec<(Option<u32>, TreeView)>,
}

fn inserted(seed: Seed) -> Vec<u32> {
    keys_like(seed, &INSERTS, RANKS)
}

fn removed(seed: Seed) -> Vec<u32> {
    keys_like(seed, &REMOVED, RANKS)
}

/// A key the set never holds: above every other.
fn absent(seed: Seed) -> u32 {
    keys_like(seed, &[11], RANKS)[0]
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::view;
    use ordered_tree::OrderedSet;

    let mut set: OrderedSet<u32> = OrderedSet::new();
    for key in inserted(seed) {
        set.insert(key);
    }
    let start = view(&set);
    let removals = removed(seed)
        .iter()
        .map(|key| (set.remove(key), view(&set)))
        .collect();
    let absent_key = absent(seed);
    let absent = set.remove(&absent_key);
    let after_absent = view(&set);
    let left: Vec<u32> = set.iter().copied().collect();
    let rest = left.iter().map(|key| (set.remove(key), view(&set))).collect();
    Seen {
        start,
        removals,
        absent,
        after_absent,
        rest,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let mut keys = sorted(&inserted(seed));
    assert_eq!(assert_ordered(&seen.start), keys, "the set must hold the keys inserted");
    let removed = removed(seed);
    assert_eq!(seen.removals.len(), removed.len());
    for ((got, tree), key) in seen.removals.iter().zip(&removed) {
        assert_eq!(*got, Some(*key), "remove({key}) must return the key");
        keys.retain(|k| k != key);
        assert_eq!(
            assert_ordered(tree),
            keys,
            "after remove({key}), exactly that key must be gone and the rest stay ordered"
        );
    }
    assert_eq!(seen.absent, None, "removing an absent key returns None");
    assert_eq!(
        assert_ordered(&seen.after_absent),
        keys,
        "removing an absent key must not change the set"
    );
    assert_eq!(seen.rest.len(), keys.len(), "every key left can be removed");
    for ((got, tree), key) in seen.rest.iter().zip(keys.clone()) {
        assert_eq!(*got, Some(key), "remove({key}) must return the key");
        keys.retain(|&k| k != key);
        assert_eq!(assert_ordered(tree), keys, "after remove({key}) the rest must stay ordered");
    }
    assert!(keys.is_empty());
}
