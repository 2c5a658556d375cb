//! Proves enforcement: a key whose comparison panics part-way through an
//! `insert` or a `remove` leaves the set as a caller who catches the panic
//! must find it: still ordered, every key it held still there, and `len`
//! still counting the nodes. The set must change only once it knows what to
//! change, not before.
use crate::support::{TreeView, assert_ordered, keys_like, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Ranks held before the panics: a tree of four levels.
const HELD: [u32; 9] = [8, 4, 12, 2, 6, 10, 14, 1, 3];
/// The rank of the key whose comparisons panic.
const BOMB: u32 = 5;
const RANKS: usize = 16;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each attempt: whether it panicked, and the set after it.
    attempts: Vec<(bool, TreeView)>,
    /// Then a plain insert and a plain remove still work.
    after: TreeView,
}

/// (what, the comparison that panics: 1 for the first). Any correct insert
/// or remove compares at least once per level on its way down, and both
/// targets sit three levels down, so every attempt panics whichever way a
/// solution compares.
const ATTEMPTS: [(&str, u32); 4] = [("insert", 3), ("insert", 1), ("remove", 2), ("remove", 3)];

fn held(seed: Seed) -> Vec<u32> {
    keys_like(seed, &HELD, RANKS)
}

#[cfg(not(xsafe_judge))]
mod bomb {
    use std::cell::Cell;
    use std::cmp::Ordering;

    thread_local! {
        /// Comparisons an armed key still survives; panic when it is 0.
        static FUSE: Cell<Option<u32>> = const { Cell::new(None) };
    }

    /// A key that panics on the fuse's count of comparisons once armed.
    #[derive(Debug, Clone, Copy)]
    pub struct Key(pub u32);

    impl From<Key> for u32 {
        fn from(key: Key) -> u32 {
            key.0
        }
    }

    fn burn() {
        FUSE.with(|fuse| match fuse.get() {
            Some(1) => {
                fuse.set(None);
                panic!("this key's comparison panics");
            }
            Some(left) => fuse.set(Some(left - 1)),
            None => {}
        });
    }

    /// Arms the fuse: the `after`-th comparison from now panics.
    pub fn arm(after: u32) {
        FUSE.with(|fuse| fuse.set(Some(after)));
    }

    pub fn disarm() {
        FUSE.with(|fuse| fuse.set(None));
    }

    impl PartialEq for Key {
        fn eq(&self, other: &Self) -> bool {
            burn();
            self.0 == other.0
        }
    }
    impl Eq for Key {}
    impl PartialOrd for Key {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Key {
        fn cmp(&self, other: &Self) -> Ordering {
            burn();
            self.0.cmp(&other.0)
        }
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::view;
    use bomb::{Key, arm, disarm};
    use ordered_tree::OrderedSet;
    use std::panic::{AssertUnwindSafe, catch_unwind};

    // The panics are expected: keep them out of the output.
    std::panic::set_hook(Box::new(|_| {}));
    let mut set: OrderedSet<Key> = OrderedSet::new();
    for key in held(seed) {
        set.insert(Key(key));
    }
    let bomb = Key(keys_like(seed, &[BOMB], RANKS)[0]);
    let held = held(seed);
    let attempts = ATTEMPTS
        .iter()
        .map(|&(what, fuse)| {
            let target = if what == "insert" { bomb } else { Key(held[3]) };
            arm(fuse);
            let panicked = catch_unwind(AssertUnwindSafe(|| {
                if what == "insert" {
                    set.insert(target);
                } else {
                    set.remove(&target);
                }
            }))
            .is_err();
            disarm();
            (panicked, view(&set))
        })
        .collect();
    set.insert(Key(keys_like(seed, &[15], RANKS)[0]));
    set.remove(&Key(held[1]));
    Seen {
        attempts,
        after: view(&set),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let held = held(seed);
    let bomb = keys_like(seed, &[BOMB], RANKS)[0];
    assert_eq!(seen.attempts.len(), ATTEMPTS.len());
    let mut now = sorted(&held);
    for (&(what, fuse), (panicked, tree)) in ATTEMPTS.iter().zip(&seen.attempts) {
        assert!(
            panicked,
            "the {fuse}th comparison of this {what} was made to panic, but it did not: does {what} compare so little?"
        );
        let keys = assert_ordered(tree);
        for key in &now {
            if what == "remove" && *key == held[3] {
                continue;
            }
            assert!(
                keys.contains(key),
                "after a {what} whose comparison panicked, the set lost {key}, a key it held"
            );
        }
        let extra: Vec<&u32> = keys.iter().filter(|key| !now.contains(key) && **key != bomb).collect();
        assert!(extra.is_empty(), "after a {what} that panicked, the set holds keys nobody inserted: {extra:?}");
        now = keys;
    }
    let mut expected = now.clone();
    expected.push(keys_like(seed, &[15], RANKS)[0]);
    expected.retain(|&key| key != held[1]);
    assert_eq!(
        assert_ordered(&seen.after),
        sorted(&expected),
        "after the panics, insert and remove must still work"
    );
}
