//! Proves consumption: `range` yields exactly the keys within its bounds, in
//! order, for every kind of bound, and relies on the order to skip the
//! subtrees outside them instead of filtering the whole set.
use crate::support::{balanced_order, keys_like};
use serde::{Deserialize, Serialize};
use std::ops::Bound;
use xsafe_case::Seed;

/// Ranks of the keys of the small set; the other ranks below 31 are gaps
/// between them and beyond them, used as bounds.
const SMALL: [u32; 10] = [8, 3, 12, 1, 5, 10, 14, 4, 6, 9];
const RANKS: usize = 31;

/// The bounds tried, as ranks.
fn bounds() -> Vec<(Bound<u32>, Bound<u32>)> {
    use Bound::{Excluded, Included, Unbounded};
    vec![
        (Included(4), Excluded(10)),
        (Included(4), Included(10)),
        (Unbounded, Excluded(5)),
        (Included(11), Unbounded),
        (Unbounded, Unbounded),
        (Excluded(5), Excluded(10)),
        (Included(20), Excluded(30)),
        (Included(7), Excluded(7)),
        (Included(1), Included(1)),
        (Excluded(6), Included(13)),
    ]
}

fn key_bound(keys: &[u32], bound: Bound<u32>) -> Bound<u32> {
    match bound {
        Bound::Included(rank) => Bound::Included(keys[rank as usize]),
        Bound::Excluded(rank) => Bound::Excluded(keys[rank as usize]),
        Bound::Unbounded => Bound::Unbounded,
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    ranges: Vec<Vec<u32>>,
    big: Vec<u32>,
    compared: usize,
}

fn all_keys(seed: Seed) -> Vec<u32> {
    seed.ascending(RANKS)
}

fn big_keys(seed: Seed) -> Vec<u32> {
    keys_like(Seed(seed.0 ^ 0xb16), &balanced_order(10), 1023)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{Counted, comparisons_in};
    use ordered_tree::OrderedSet;

    let keys = all_keys(seed);
    let set: OrderedSet<u32> = SMALL.iter().map(|&rank| keys[rank as usize]).collect();
    let ranges = bounds()
        .into_iter()
        .map(|(start, end)| {
            set.range((key_bound(&keys, start), key_bound(&keys, end)))
                .copied()
                .collect()
        })
        .collect();
    let big: OrderedSet<Counted> = big_keys(seed).into_iter().map(Counted).collect();
    let sorted = Seed(seed.0 ^ 0xb16).ascending(1023);
    let (found, compared) = comparisons_in(|| {
        big.range(Counted(sorted[500])..Counted(sorted[505]))
            .map(|key| key.0)
            .collect()
    });
    Seen {
        ranges,
        big: found,
        compared,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let keys = all_keys(seed);
    let mut held: Vec<u32> = SMALL.iter().map(|&rank| keys[rank as usize]).collect();
    held.sort_unstable();
    let bounds = bounds();
    assert_eq!(seen.ranges.len(), bounds.len());
    for ((start, end), got) in bounds.into_iter().zip(&seen.ranges) {
        let range = (key_bound(&keys, start), key_bound(&keys, end));
        let expected: Vec<u32> = held
            .iter()
            .copied()
            .filter(|key| std::ops::RangeBounds::contains(&range, key))
            .collect();
        assert_eq!(got, &expected, "range({range:?}) must yield exactly the keys within its bounds, in order");
    }
    let sorted = Seed(seed.0 ^ 0xb16).ascending(1023);
    assert_eq!(seen.big, sorted[500..505].to_vec(), "range() over 1023 keys gave the wrong keys");
    assert!(
        seen.compared <= 60,
        "range() compared {} keys for 5 results out of 1023; skipping subtrees needs far fewer",
        seen.compared
    );
}
