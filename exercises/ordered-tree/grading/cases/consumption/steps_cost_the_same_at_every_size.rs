//! Proves consumption: a step of `range` and of `iter` costs the same in a
//! small set and in a large one: an iterator keeps where it is and goes
//! on from there. Measured twice:
//!
//! - 200 steps from the middle of balanced sets of 1,023 and 8,191 keys.
//!   An iterator that finds each next key again from the root (a
//!   successor search per step) reads a path per step, 13 levels long in
//!   the larger set against 10, so its steps cost about 30 % more there;
//! - 16 steps after the first key of sets of 128 and 1,024 keys inserted
//!   in decreasing order (a plain search tree is then one long left path,
//!   whose nodes all wait on the iterator's stack; the first step, which
//!   may walk down that path, is the iteration's start, not a step). An iterator that takes
//!   from the bottom of its stack (`remove(0)`, `insert(0, ..)`) moves the
//!   whole stack at each step, eight times more memory in the larger set.
//!
//! What is counted is every access the steps make to the set's memory and
//! to the iterator's own (both allocated in the case's arena), not
//! comparisons and not distinct pages (a search from the root reads pages
//! it read before): the case protects the arena's pages and traps each
//! load and store (`xsafe_case::pages::stop_at_access`, Linux on x86_64
//! only). Only the steps are counted: the iterator is made, and moved to
//! where the steps start, before the count starts. The count depends on
//! what the code reads, not on time. Where accesses cannot be trapped,
//! nothing is counted and the case checks only the keys the steps yield.
use crate::support::balanced_order;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The two sizes, in levels of a perfectly balanced tree.
const LEVELS: [u32; 2] = [10, 13];

/// How many steps are counted at each size of the balanced sets.
const STEPS: usize = 200;

/// The sizes of the sets built in decreasing order, and how many steps
/// are counted from their start.
const CHAINS: [usize; 2] = [128, 1_024];
const CHAIN_STEPS: usize = 16;

/// How much more the steps may read in the larger set: 10 % of what they
/// read in the smaller one, and `SLACK` accesses more (an iterator that
/// keeps its place climbs at most one path more in a taller tree). A
/// search from the root per step reads about 30 % more in the balanced
/// sets; a stack moved at each step, eight times more in the chains.
const GROWTH_PERCENT: usize = 10;
const SLACK: usize = 64;

/// What the steps of one iterator gave at one size: the keys they
/// yielded, and the accesses counted (`None` where none could be).
type Stepped = (Vec<u32>, Option<usize>);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Per size of the balanced sets: `range(k..)`'s steps, then
    /// `iter()`'s.
    sizes: Vec<[Stepped; 2]>,
    /// Per size of the sets built in decreasing order: `range(..)`'s
    /// steps, then `iter()`'s, from the start.
    chains: Vec<[Stepped; 2]>,
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

/// The keys of a set of `count` keys, in decreasing order (values from
/// the seed).
fn chain_keys(seed: Seed, count: usize) -> Vec<u32> {
    let mut keys = Seed(seed.0 ^ count as u64).ascending(count);
    keys.reverse();
    keys
}

// The observing program's global allocator, `xsafe_case::pages::Paged`,
// is declared once for all its cases, in `support.rs`.

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use ordered_tree::OrderedSet;
    use xsafe_case::pages::{overflowed, paged, stop_at_access, trial_access};

    let counted = trial_access().whole;
    /// Takes `count` steps of `iter`, counting their accesses; whatever
    /// the steps allocate is in the arena too.
    fn steps<'a>(iter: &mut dyn Iterator<Item = &'a u32>, count: usize, counted: bool) -> Stepped {
        let mut yielded = Vec::with_capacity(count);
        let (_, accesses) = paged(|| {
            stop_at_access(usize::MAX, || {
                for _ in 0..count {
                    match iter.next() {
                        Some(&key) => yielded.push(key),
                        None => break,
                    }
                }
            })
        });
        (yielded, (counted && accesses.whole).then_some(accesses.count))
    }
    let sizes = LEVELS
        .iter()
        .map(|&levels| {
            let (held, middle) = keys(seed, levels);
            let set: OrderedSet<u32> = paged(|| held.iter().copied().collect());
            let mut range = paged(|| set.range(middle..));
            let from_range = steps(&mut range, STEPS, counted);
            let mut iter = paged(|| {
                let mut iter = set.iter();
                // To the middle, uncounted.
                for _ in 0..held.len() / 2 {
                    iter.next();
                }
                iter
            });
            let from_iter = steps(&mut iter, STEPS, counted);
            [from_range, from_iter]
        })
        .collect();
    let chains = CHAINS
        .iter()
        .map(|&count| {
            let held = chain_keys(seed, count);
            let set: OrderedSet<u32> = paged(|| held.iter().copied().collect());
            // The first step is the iteration's start, which may walk down
            // the whole path (an iterator that descends lazily does it
            // then): uncounted, as `reads_one_path` measures starts.
            let mut range = paged(|| {
                let mut range = set.range(..);
                range.next();
                range
            });
            let from_range = steps(&mut range, CHAIN_STEPS, counted);
            let mut iter = paged(|| {
                let mut iter = set.iter();
                iter.next();
                iter
            });
            let from_iter = steps(&mut iter, CHAIN_STEPS, counted);
            [from_range, from_iter]
        })
        .collect();
    Seen {
        sizes,
        chains,
        overflowed: overflowed(),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    assert!(
        !seen.overflowed,
        "the sets of this case took more than the 16,384 memory pages the case sets aside for them (it builds 10,366 nodes, each on a page of its own), so what their steps read could not be counted: does an operation allocate far more than the nodes?"
    );
    assert_eq!(
        seen.sizes.len(),
        LEVELS.len(),
        "the observation must hold both sizes"
    );
    assert_eq!(
        seen.chains.len(),
        CHAINS.len(),
        "the observation must hold both sets built in decreasing order"
    );
    // Each set: what it is, and what `range`'s and `iter`'s steps must
    // yield in it.
    let balanced: Vec<(String, [Vec<u32>; 2])> = LEVELS
        .iter()
        .map(|&levels| {
            let (held, middle) = keys(seed, levels);
            let sorted = ascending(held);
            // `range(k..)` starts at `k`, which the set holds; `iter()`
            // was moved past the first half of the keys.
            let from_middle = sorted.partition_point(|&key| key < middle);
            let from_half = sorted.len() / 2;
            (
                format!("balanced set of {} keys", sorted.len()),
                [next(&sorted, from_middle, STEPS), next(&sorted, from_half, STEPS)],
            )
        })
        .collect();
    let chains: Vec<(String, [Vec<u32>; 2])> = CHAINS
        .iter()
        .map(|&count| {
            let sorted = ascending(chain_keys(seed, count));
            // Both after the first key, taken before the count.
            let after_first = next(&sorted, 1, CHAIN_STEPS);
            (
                format!("set of {count} keys inserted in decreasing order"),
                [after_first.clone(), after_first],
            )
        })
        .collect();
    for (at, name) in ["range(k..)", "iter()"].into_iter().enumerate() {
        judge_steps(name, at, STEPS, &balanced, &seen.sizes);
    }
    for (at, name) in ["range(..)", "iter()"].into_iter().enumerate() {
        judge_steps(name, at, CHAIN_STEPS, &chains, &seen.chains);
    }
}

/// `keys` in increasing order.
fn ascending(mut keys: Vec<u32>) -> Vec<u32> {
    keys.sort_unstable();
    keys
}

/// The `count` keys of `sorted` from position `from` on.
fn next(sorted: &[u32], from: usize, count: usize) -> Vec<u32> {
    sorted[from..].iter().copied().take(count).collect()
}

/// One iterator (`at` in each set's pair) over both `sets` (the smaller
/// first): `steps` steps yielded the keys expected, and cost at most
/// `GROWTH_PERCENT` and `SLACK` more in the larger set.
fn judge_steps(
    name: &str,
    at: usize,
    steps: usize,
    sets: &[(String, [Vec<u32>; 2])],
    stepped: &[[Stepped; 2]],
) {
    let mut counts = Vec::new();
    for ((set, expected), stepped) in sets.iter().zip(stepped) {
        let (yielded, accesses) = &stepped[at];
        assert_eq!(
            yielded, &expected[at],
            "{steps} steps of {name} on a {set} yielded other keys than the next {steps} in increasing order"
        );
        counts.push(*accesses);
    }
    let [Some(small), Some(large)] = counts[..] else {
        // Not counted here: the keys alone were checked.
        return;
    };
    let allowed = small + small * GROWTH_PERCENT / 100 + SLACK;
    assert!(
        large <= allowed,
        "{steps} steps of {name} accessed the set's and the iterator's memory {small} times in a {} and {large} times in a {}, more than the {allowed} allowed: a step should cost the same at every size. \
         Does each step search for the next key from the root, or move the whole stack (`remove(0)`, `insert(0, ..)`)? Keep the nodes still to visit on a stack whose top is its end, and go on from where the last step ended",
        sets[0].0,
        sets[1].0
    );
}
