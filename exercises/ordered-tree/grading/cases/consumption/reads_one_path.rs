//! Proves consumption: the operations the chapter promises read one path
//! of the tree, not the set. `first`, `last`, `contains`, `get`, the start
//! of `range` and of `iter`, a `NonEmptySet`'s `min`, `max` and
//! `contains`, and `insert` and `remove` (which walk down the one path
//! where the key belongs, and check nothing again), each read at most `6 * levels + 8` nodes of a balanced tree
//! of 1,023 keys (10 levels) and of 8,191 keys (13 levels): three walks
//! from the root to a leaf (a range finds its start and its end, then
//! steps once), in a tree up to twice as tall as the perfect one (an AVL
//! or red-black tree of the learner's own design). A set that scans reads
//! hundreds of nodes at the first size and thousands at the second.
//!
//! What is counted is memory, not comparisons: the case builds each set
//! with every allocation on pages of its own, protects them, and counts
//! the pages the operation touches (`xsafe_case::pages`: the memory
//! hardware traps the first access to each page). So a `last` that walks
//! `iter()` to its end, a `range` that starts from the first key and skips
//! forward by pointer, or an iterator that copies every key at its start
//! is seen although it compares nothing. The count depends on what the
//! code reads, not on time; on systems where pages cannot be protected
//! (not Unix), nothing is counted and the case checks only the answers.
use crate::support::balanced_order;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The two sizes, in levels of a perfectly balanced tree.
const LEVELS: [u32; 2] = [10, 13];

/// The most nodes an operation may read: three walks from the root to a
/// leaf, in a tree up to twice as tall as the perfect one.
fn path_limit(levels: u32) -> usize {
    6 * levels as usize + 8
}

/// The operations measured on the set as a `NonEmptySet`.
const NON_EMPTY: [&str; 4] = [
    "NonEmptySet::min()",
    "NonEmptySet::max()",
    "NonEmptySet::contains() of a held key",
    "NonEmptySet::contains() of a missing key",
];

/// One measured call: what it answered, and the pages it touched
/// (`None` where pages cannot be counted).
type Measured = (Option<u32>, Option<usize>);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Per size: each operation's name and what it measured.
    sizes: Vec<Vec<(String, Measured)>>,
    /// The arena ran out of room (a set that allocates far more than its
    /// nodes): nothing could be counted.
    overflowed: bool,
    /// Pages could be protected here, but a count was not whole.
    broken: bool,
}

/// The keys of a balanced tree of `levels` levels in insertion order, a
/// key in the middle of its lower half and one absent key between two
/// held ones (values from the seed, the same shape in every run).
fn keys(seed: Seed, levels: u32) -> (Vec<u32>, u32, u32) {
    let count = (1usize << levels) - 1;
    let order = balanced_order(levels);
    // Ranks 0, 2, 4, ... are held; odd ranks are gaps between them.
    let doubled: Vec<u32> = order.iter().map(|&rank| rank * 2).collect();
    let ranks = Seed(seed.0 ^ u64::from(levels)).ascending(2 * count + 1);
    let held = doubled.iter().map(|&rank| ranks[rank as usize]).collect();
    let middle = ranks[(count / 2) & !1];
    let absent = ranks[count | 1];
    (held, middle, absent)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use ordered_tree::OrderedSet;
    use std::ops::Bound;
    use xsafe_case::pages::{overflowed, paged, touched};

    let mut broken = false;
    let mut measure = |name: &str, work: &mut dyn FnMut() -> Option<u32>| -> (String, Measured) {
        let (answer, pages) = touched(work);
        if cfg!(all(unix, not(miri))) && !pages.whole {
            broken = true;
        }
        (name.to_owned(), (answer, pages.whole.then_some(pages.pages)))
    };
    let sizes = LEVELS
        .iter()
        .map(|&levels| {
            let (held, middle, absent) = keys(seed, levels);
            let set: OrderedSet<u32> = paged(|| held.iter().copied().collect());
            let mut measured = vec![
                measure("first()", &mut || set.first().copied()),
                measure("last()", &mut || set.last().copied()),
                measure("contains() of a held key", &mut || Some(u32::from(set.contains(&middle)))),
                measure("contains() of a missing key", &mut || Some(u32::from(set.contains(&absent)))),
                measure("get()", &mut || set.get(&middle).copied()),
                measure("range(k..).next()", &mut || set.range(middle..).next().copied()),
                measure("range((Excluded(k), Unbounded)).next()", &mut || {
                    set.range((Bound::Excluded(middle), Bound::Unbounded)).next().copied()
                }),
                measure("range(..=k).next()", &mut || set.range(..=middle).next().copied()),
                measure("iter().next()", &mut || set.iter().next().copied()),
            ];
            // The same nodes as a `NonEmptySet`, and back: nothing is built
            // twice (whatever the conversions allocate is counted too).
            let mut set = match paged(|| set.into_non_empty()) {
                Ok(non_empty) => {
                    measured.extend([
                        measure("NonEmptySet::min()", &mut || Some(*non_empty.min())),
                        measure("NonEmptySet::max()", &mut || Some(*non_empty.max())),
                        measure("NonEmptySet::contains() of a held key", &mut || {
                            Some(u32::from(non_empty.contains(&middle)))
                        }),
                        measure("NonEmptySet::contains() of a missing key", &mut || {
                            Some(u32::from(non_empty.contains(&absent)))
                        }),
                    ]);
                    paged(|| non_empty.into_set())
                }
                Err(set) => {
                    for name in NON_EMPTY {
                        measured.push((name.to_owned(), (None, None)));
                    }
                    set
                }
            };
            measured.push(measure("insert() of a missing key", &mut || Some(u32::from(set.insert(absent)))));
            measured.push(measure("remove() of a key with two children", &mut || set.remove(&middle)));
            measured
        })
        .collect();
    Seen { sizes, overflowed: overflowed(), broken }
}

pub fn judge(seed: Seed, seen: Seen) {
    assert!(
        !seen.overflowed,
        "the sets of this case took more than the 16,384 memory pages the case sets aside for them (it builds 9,214 nodes), so what their operations read could not be counted"
    );
    assert!(
        !seen.broken,
        "the pages this case counts could not be protected, so what the operations read could not be counted"
    );
    assert_eq!(seen.sizes.len(), LEVELS.len(), "the observation must hold both sizes");
    let mut read: Vec<(String, Vec<Option<usize>>)> = Vec::new();
    for (&levels, measured) in LEVELS.iter().zip(&seen.sizes) {
        let (held, middle, _) = keys(seed, levels);
        let (min, max) = (held.iter().min().copied(), held.iter().max().copied());
        let above = held.iter().copied().filter(|&key| key > middle).min();
        let expected: [(&str, Option<u32>); 15] = [
            ("first()", min),
            ("last()", max),
            ("contains() of a held key", Some(1)),
            ("contains() of a missing key", Some(0)),
            ("get()", Some(middle)),
            ("range(k..).next()", Some(middle)),
            ("range((Excluded(k), Unbounded)).next()", above),
            ("range(..=k).next()", min),
            ("iter().next()", min),
            ("NonEmptySet::min()", min),
            ("NonEmptySet::max()", max),
            ("NonEmptySet::contains() of a held key", Some(1)),
            ("NonEmptySet::contains() of a missing key", Some(0)),
            ("insert() of a missing key", Some(1)),
            ("remove() of a key with two children", Some(middle)),
        ];
        assert_eq!(measured.len(), expected.len(), "the observation must hold every operation");
        let keys = held.len();
        for (at, ((name, (answer, pages)), (expected_name, expected_answer))) in measured.iter().zip(expected).enumerate() {
            assert_eq!(name, expected_name, "the observation lists the operations in the case's order");
            assert_eq!(
                *answer, expected_answer,
                "{name} on a set of {keys} keys answered {answer:?}, not {expected_answer:?}"
            );
            if read.len() <= at {
                read.push((name.clone(), Vec::new()));
            }
            read[at].1.push(*pages);
        }
    }
    let sizes: Vec<String> = LEVELS.iter().map(|&levels| format!("{} keys", (1u32 << levels) - 1)).collect();
    let limits: Vec<usize> = LEVELS.iter().map(|&levels| path_limit(levels)).collect();
    for (name, pages) in read {
        let over = pages.iter().zip(&limits).any(|(pages, &limit)| pages.is_some_and(|pages| pages > limit));
        let shown: Vec<String> = pages.iter().map(|pages| pages.map_or("uncounted".to_owned(), |pages| pages.to_string())).collect();
        assert!(
            !over,
            "{name} read {} nodes of balanced sets of {}; three walks from the root to a leaf read at most {} and {}. \
             The order tells which way to go at each node, so the operation never needs the rest of the set",
            shown.join(" and "),
            sizes.join(" and "),
            limits[0],
            limits[1]
        );
    }
}
