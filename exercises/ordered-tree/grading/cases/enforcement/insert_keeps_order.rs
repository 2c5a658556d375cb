//! Proves enforcement: `insert` puts every key where the order says, keeps
//! `len` right, and refuses a key that is already present.
use crate::support::{TreeView, assert_ordered, keys_like, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The ranks of the keys inserted, in order: a tree with nodes of every
/// kind (leaves, one child, two children) on several levels.
const INSERTS: [u32; 13] = [6, 2, 10, 1, 4, 8, 11, 3, 5, 9, 0, 12, 7];
const RANKS: usize = 13;
/// Ascending then descending runs build the tallest trees.
const TALL: usize = 1000;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// What each insert returned, and the tree after it.
    inserts: Vec<(bool, TreeView)>,
    /// What inserting the fifth key and the root's key again returned.
    again: [bool; 2],
    after_again: TreeView,
    tall: TreeView,
}

fn inserted(seed: Seed) -> Vec<u32> {
    keys_like(seed, &INSERTS, RANKS)
}

fn tall_keys(seed: Seed) -> Vec<u32> {
    let keys = Seed(seed.0 ^ 0x7a11).ascending(TALL);
    keys[..TALL / 2].iter().chain(keys[TALL / 2..].iter().rev()).copied().collect()
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::view;
    use ordered_tree::OrderedSet;

    let keys = inserted(seed);
    let mut set = OrderedSet::new();
    let inserts = keys
        .iter()
        .map(|&key| {
            let added = set.insert(key);
            (added, view(&set))
        })
        .collect();
    let again = [set.insert(keys[4]), set.insert(keys[0])];
    let after_again = view(&set);
    let mut tall = OrderedSet::new();
    for key in tall_keys(seed) {
        tall.insert(key);
    }
    Seen {
        inserts,
        again,
        after_again,
        tall: view(&tall),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let keys = inserted(seed);
    assert_eq!(seen.inserts.len(), keys.len());
    for (count, ((added, tree), key)) in seen.inserts.iter().zip(&keys).enumerate() {
        assert!(added, "inserting the new key {key} must return true");
        assert_eq!(
            assert_ordered(tree),
            sorted(&keys[..=count]),
            "after inserting {key}, the tree must hold exactly the keys inserted so far"
        );
    }
    assert!(!seen.again[0], "inserting a key that is present must return false");
    assert!(!seen.again[1], "inserting the root's key again must return false");
    assert_eq!(
        assert_ordered(&seen.after_again),
        sorted(&keys),
        "a refused insert must not change the set"
    );
    assert_eq!(
        assert_ordered(&seen.tall),
        sorted(&tall_keys(seed)),
        "a tall tree (keys inserted in ascending, then descending runs) must stay ordered"
    );
}
