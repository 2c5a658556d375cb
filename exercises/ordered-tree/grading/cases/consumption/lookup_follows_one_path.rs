//! Proves consumption: `contains` and `get` rely on the order and follow one
//! path from the root, so in a balanced tree of 1023 keys (10 levels) a
//! lookup compares at most 20 keys. Scanning the set would compare hundreds.
//! The same holds of a `NonEmptySet`'s `contains`, on the same keys.
use crate::support::balanced_order;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// 1023 keys in the set, 77 more that are not.
const HELD: usize = 1023;
const LOOKED_UP: usize = 1100;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    len: usize,
    /// For each key looked up: `contains` and its comparisons, `get` and its.
    lookups: Vec<(bool, usize, Option<u32>, usize)>,
    /// For each key looked up in the same keys as a `NonEmptySet`:
    /// `contains` and its comparisons.
    non_empty: Vec<(bool, usize)>,
}

/// Every key looked up, in increasing order, and whether the set holds
/// it. Which ranks are absent is the same in every run (they interleave
/// with the present ones); the values change with the seed.
fn keys(seed: Seed) -> (Vec<u32>, Vec<bool>) {
    let all = seed.ascending(LOOKED_UP);
    let mut rng = xsafe_case::Rng::with_seed(0x100c);
    let mut held = vec![true; HELD];
    held.extend(std::iter::repeat_n(false, LOOKED_UP - HELD));
    rng.shuffle(&mut held);
    (all, held)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{Counted, comparisons_in};
    use ordered_tree::{NonEmptySet, OrderedSet};

    let (all, held) = keys(seed);
    let present: Vec<u32> = all.iter().zip(&held).filter(|(_, held)| **held).map(|(key, _)| *key).collect();
    let set: OrderedSet<Counted> = balanced_order(10).into_iter().map(|rank| Counted(present[rank as usize])).collect();
    let lookups = all
        .iter()
        .map(|&key| {
            let (found, contains_used) = comparisons_in(|| set.contains(&Counted(key)));
            let (got, get_used) = comparisons_in(|| set.get(&Counted(key)).map(|key| key.0));
            (found, contains_used, got, get_used)
        })
        .collect();
    let order = balanced_order(10);
    let mut non_empty = NonEmptySet::new(Counted(present[order[0] as usize]));
    for rank in &order[1..] {
        non_empty.insert(Counted(present[*rank as usize]));
    }
    let non_empty = all
        .iter()
        .map(|&key| comparisons_in(|| non_empty.contains(&Counted(key))))
        .collect();
    Seen {
        len: set.len(),
        lookups,
        non_empty,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let (all, held) = keys(seed);
    assert_eq!(seen.len, HELD, "the set must hold the {HELD} keys inserted");
    assert_eq!(seen.lookups.len(), all.len());
    for ((key, held), &(found, contains_used, got, get_used)) in all.iter().zip(held).zip(&seen.lookups) {
        assert_eq!(found, held, "contains({key}) gave the wrong answer");
        assert!(
            contains_used <= 20,
            "contains({key}) compared {contains_used} keys; following one path needs at most 20"
        );
        assert_eq!(got, held.then_some(*key), "get({key}) gave the wrong answer");
        assert!(
            get_used <= 20,
            "get({key}) compared {get_used} keys; following one path needs at most 20"
        );
    }
    assert_eq!(seen.non_empty.len(), all.len());
    for ((key, held), &(found, used)) in all.iter().zip(&keys(seed).1).zip(&seen.non_empty) {
        assert_eq!(found, *held, "NonEmptySet::contains({key}) gave the wrong answer");
        assert!(
            used <= 20,
            "NonEmptySet::contains({key}) compared {used} keys; following one path needs at most 20"
        );
    }
}
