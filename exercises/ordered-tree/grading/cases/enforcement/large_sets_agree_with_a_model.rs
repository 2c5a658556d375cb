//! Proves enforcement at scale: a set of 100,000 keys inserted in a random
//! order, a third of them removed again, agrees with std's `BTreeSet` (the
//! judge's model, which shares no code with the reference): its `len`,
//! `first` and `last`, every key `iter` yields in order, the `len()` the
//! iterator reports (at its start and a third of the way in: the set
//! holds 66,666 keys, more than a `u16` counts), `contains` and `get` for
//! 2,000 keys in and out of it, and a `range` in the middle;
//! and `iter` and `range`, being `FusedIterator`s, give `None` for good
//! once they have given it (ranges that end inside the set and after it). A
//! count kept in fewer bits, or anything that holds only so many keys,
//! shows here; no smaller case reaches these sizes.
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use xsafe_case::Seed;

const KEYS: usize = 100_000;
const PROBES: usize = 2_000;

/// The keys in insertion order, the keys removed, the keys probed.
fn inputs(seed: Seed) -> (Vec<u64>, Vec<u64>, Vec<u64>) {
    let mut rng = seed.rng();
    let mut keys: Vec<u64> = (0..KEYS).map(|_| rng.u64(..)).collect();
    keys.sort_unstable();
    keys.dedup();
    // Fisher-Yates: a random insertion order keeps the tree shallow.
    for at in (1..keys.len()).rev() {
        keys.swap(at, rng.usize(0..=at));
    }
    let removed: Vec<u64> = keys.iter().step_by(3).copied().collect();
    let probes: Vec<u64> = (0..PROBES)
        .map(|n| if n % 2 == 0 { keys[rng.usize(0..keys.len())] } else { rng.u64(..) })
        .collect();
    (keys, removed, probes)
}

/// Order-dependent digest of a sequence of keys: equal exactly when the
/// same keys come in the same order (up to a 64-bit collision).
fn digest(keys: impl Iterator<Item = u64>) -> (usize, u64) {
    let mut count = 0;
    let mut hash = 0xcbf2_9ce4_8422_2325u64;
    for key in keys {
        count += 1;
        hash = (hash ^ key).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(17);
    }
    (count, hash)
}

#[derive(Debug, Serialize, Deserialize, PartialEq)]
pub struct Seen {
    /// What each `insert` and `remove` returned, digested.
    inserted: (usize, u64),
    removed: (usize, u64),
    len: usize,
    first: Option<u64>,
    last: Option<u64>,
    /// The keys `iter` yields, digested.
    iterated: (usize, u64),
    /// What `iter().len()` reports at the start, and after a third of the
    /// keys (and one more) were taken.
    iter_len: (usize, usize),
    /// For each probe: `contains`, and what `get` found.
    probed: Vec<(bool, Option<u64>)>,
    /// The keys of `range` between two held keys, digested.
    ranged: (usize, u64),
    /// How many keys `iter`, a range ending inside the set and a range
    /// running past its end gave after their first `None` (asked 3 times).
    after_the_end: (usize, usize, usize),
}

/// What the model says; the observation must be exactly this.
fn expected(seed: Seed) -> Seen {
    let (keys, removed, probes) = inputs(seed);
    let mut model = BTreeSet::new();
    let inserted = digest(keys.iter().map(|key| u64::from(model.insert(*key))));
    let gone = digest(removed.iter().map(|key| u64::from(model.remove(key))));
    let sorted: Vec<u64> = model.iter().copied().collect();
    let (low, high) = (sorted[sorted.len() / 3], sorted[2 * sorted.len() / 3]);
    Seen {
        inserted,
        removed: gone,
        len: model.len(),
        first: model.first().copied(),
        last: model.last().copied(),
        iterated: digest(model.iter().copied()),
        iter_len: (model.len(), model.len() - model.len() / 3 - 1),
        probed: probes
            .iter()
            .map(|key| (model.contains(key), model.get(key).copied()))
            .collect(),
        ranged: digest(model.range(low..high).copied()),
        after_the_end: (0, 0, 0),
    }
}

/// How many items `items` gives after its first `None`, asked 3 times.
#[cfg(not(xsafe_judge))]
fn after_the_end<'a>(mut items: impl Iterator<Item = &'a u64>) -> usize {
    while items.next().is_some() {}
    (0..3).filter(|_| items.next().is_some()).count()
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use ordered_tree::OrderedSet;
    let (keys, removed, probes) = inputs(seed);
    let mut set = OrderedSet::new();
    let inserted = digest(keys.iter().map(|key| u64::from(set.insert(*key))));
    let gone = digest(removed.iter().map(|key| u64::from(set.remove(key).is_some())));
    // The range's ends are keys the set holds, taken from its own order.
    let len = set.len();
    let low = set.iter().nth(len / 3).copied();
    let high = set.iter().nth(2 * len / 3).copied();
    let ranged = match (low, high) {
        (Some(low), Some(high)) => digest(set.range(low..high).copied()),
        _ => (0, 0),
    };
    Seen {
        inserted,
        removed: gone,
        len,
        first: set.first().copied(),
        last: set.last().copied(),
        iterated: digest(set.iter().copied()),
        iter_len: {
            let mut iter = set.iter();
            let start = iter.len();
            iter.nth(len / 3);
            (start, iter.len())
        },
        probed: probes
            .iter()
            .map(|key| (set.contains(key), set.get(key).copied()))
            .collect(),
        ranged,
        after_the_end: match (low, high) {
            (Some(low), Some(high)) => (
                after_the_end(set.iter()),
                after_the_end(set.range(low..high)),
                after_the_end(set.range(high..)),
            ),
            _ => (usize::MAX, usize::MAX, usize::MAX),
        },
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let model = expected(seed);
    assert_eq!(seen.inserted, model.inserted, "the 100,000 inserts must each return what `BTreeSet::insert` returns");
    assert_eq!(seen.removed, model.removed, "removing a third of the keys must find each one");
    assert_eq!(seen.len, model.len, "`len` after 100,000 inserts and the removals");
    assert_eq!((seen.first, seen.last), (model.first, model.last), "`first` and `last` of 66,666 keys");
    assert_eq!(seen.iterated, model.iterated, "`iter` must yield every one of the {} keys, in order", model.len);
    assert_eq!(
        seen.iter_len, model.iter_len,
        "`iter().len()` on a set of {} keys, at the start and after {} keys were taken: an `ExactSizeIterator` reports exactly how many keys are left",
        model.len,
        model.len / 3 + 1
    );
    for (n, (got, want)) in seen.probed.iter().zip(&model.probed).enumerate() {
        assert_eq!(got, want, "probe {n}: `contains` and `get` on a set of {} keys", model.len);
    }
    assert_eq!(seen.probed.len(), model.probed.len());
    assert_eq!(seen.ranged, model.ranged, "`range` over the middle third of the keys");
    assert_eq!(
        seen.after_the_end,
        (0, 0, 0),
        "after their first `None`, `iter`, a range ending inside the set and a range to its end gave these many more keys: `Iter` and `Range` are `FusedIterator`s, which give `None` for good"
    );
}
