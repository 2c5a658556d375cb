//! Proves consumption: a step of `range` and of `iter` costs the same in a
//! set of 1,023 keys and in one of 8,191: an iterator keeps where it is
//! and goes on from there, so 200 steps read about as much memory in
//! both. An iterator that finds each next key again from the root (a
//! successor search per step) reads a path per step, which is 13 levels
//! long in the larger set against 10 in the smaller, so its steps cost
//! about 30 % more there; one that walks the set for each step costs eight
//! times more.
//!
//! What is counted is every access the steps make to the set's memory,
//! not comparisons and not distinct pages (a search from the root reads
//! pages it read before): the case builds each set with every allocation
//! on pages of its own, protects them, and traps each load and store
//! (`xsafe_case::pages::stop_at_access`, Linux on x86_64 only). Only the
//! steps are counted: the iterator is made, and moved to the middle of
//! the set, before the count starts. The count depends on what the code
//! reads, not on time. Where accesses cannot be trapped, nothing is
//! counted and the case checks only the keys the steps yield.
use crate::support::balanced_order;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The two sizes, in levels of a perfectly balanced tree.
const LEVELS: [u32; 2] = [10, 13];

/// How many steps are counted at each size.
const STEPS: usize = 200;

/// How much more the steps may read in the larger set: 10 % of what they
/// read in the smaller one, and `SLACK` accesses more (an iterator that
/// keeps its place climbs at most one path more in a taller tree). A
/// search from the root per step reads about 30 % more.
const GROWTH_PERCENT: usize = 10;
const SLACK: usize = 64;

/// What the steps of one iterator gave at one size: the keys they
/// yielded, and the accesses counted (`None` where none could be).
type Stepped = (Vec<u32>, Option<usize>);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Per size: `range(k..)`'s steps, then `iter()`'s.
    sizes: Vec<[Stepped; 2]>,
    /// The arena ran out of room (a set that allocates far more than its
    /// nodes): nothing could be counted.
    overflowed: bool,
}

/// The keys of a balanced tree of `levels` levels in insertion order, and
/// the key in the middle of the set, where the steps start (values from
/// the seed, the same shape in every run).
fn keys(seed: Seed, levels: u32) -> (Vec<u32>, u32) {
    let count = (1usize << levels) - 1;
    let order = balanced_order(levels);
    let ranks = Seed(seed.0 ^ u64::from(levels)).ascending(count);
    let held: Vec<u32> = order.iter().map(|&rank| ranks[rank as usize]).collect();
    (held, ranks[count / 2])
}

// The observing program's global allocator, `xsafe_case::pages::Paged`,
// is declared once for all its cases, in `reads_one_path`.

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use ordered_tree::OrderedSet;
    use xsafe_case::pages::{overflowed, paged, stop_at_access, trial_access};

    let counted = trial_access().whole;
    /// Takes `STEPS` steps of `iter`, counting their accesses.
    fn steps<'a>(iter: &mut dyn Iterator<Item = &'a u32>, counted: bool) -> Stepped {
        let mut yielded = Vec::with_capacity(STEPS);
        let (_, accesses) = stop_at_access(usize::MAX, || {
            for _ in 0..STEPS {
                match iter.next() {
                    Some(&key) => yielded.push(key),
                    None => break,
                }
            }
        });
        (yielded, (counted && accesses.whole).then_some(accesses.count))
    }
    let sizes = LEVELS
        .iter()
        .map(|&levels| {
            let (held, middle) = keys(seed, levels);
            let set: OrderedSet<u32> = paged(|| held.iter().copied().collect());
            let mut range = set.range(middle..);
            let from_range = steps(&mut range, counted);
            let mut iter = set.iter();
            // To the middle, uncounted.
            for _ in 0..held.len() / 2 {
                iter.next();
            }
            let from_iter = steps(&mut iter, counted);
            [from_range, from_iter]
        })
        .collect();
    Seen {
        sizes,
        overflowed: overflowed(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    assert!(
        !seen.overflowed,
        "the sets of this case took more than the 16,384 memory pages the case sets aside for them (it builds 9,214 nodes), so what their steps read could not be counted"
    );
    assert_eq!(
        seen.sizes.len(),
        LEVELS.len(),
        "the observation must hold both sizes"
    );
    let names = ["range(k..)", "iter()"];
    let mut counts: [Vec<Option<usize>>; 2] = [Vec::new(), Vec::new()];
    for (&levels, stepped) in LEVELS.iter().zip(&seen.sizes) {
        let (held, middle) = keys(seed, levels);
        let mut sorted = held.clone();
        sorted.sort_unstable();
        let from = sorted.partition_point(|&key| key < middle);
        let expected: Vec<u32> = sorted[from..].iter().copied().take(STEPS).collect();
        let keys = held.len();
        for (at, (yielded, accesses)) in stepped.iter().enumerate() {
            let name = names[at];
            let first = if at == 0 {
                // `range(k..)` starts at `k`, which the set holds.
                &expected[..]
            } else {
                // `iter()` was moved past the first half of the keys.
                let start = keys / 2;
                &sorted[start..(start + STEPS).min(keys)]
            };
            assert_eq!(
                yielded.as_slice(),
                first,
                "{STEPS} steps of {name} on a set of {keys} keys yielded other keys than the next {STEPS} in increasing order"
            );
            counts[at].push(*accesses);
        }
    }
    let sizes: Vec<String> = LEVELS
        .iter()
        .map(|&levels| format!("{} keys", (1u32 << levels) - 1))
        .collect();
    for (name, counts) in names.iter().zip(&counts) {
        let (Some(Some(small)), Some(Some(large))) = (counts.first(), counts.last()) else {
            // Not counted here: the keys alone were checked.
            continue;
        };
        let allowed = small + small * GROWTH_PERCENT / 100 + SLACK;
        assert!(
            *large <= allowed,
            "{STEPS} steps of {name} read the set's memory {small} times in a set of {} and {large} times in one of {}, more than the {allowed} allowed: a step should cost the same at every size. \
             Does each step search for the next key from the root? Keep the nodes still to visit (a stack of the path) and go on from where the last step ended",
            sizes[0],
            sizes[1]
        );
    }
}
