//! Proves enforcement: the comparison and hashing traits a set may have
//! (`PartialEq`, `Eq`, `PartialOrd`, `Ord`, `Hash`, all optional) say what
//! the set holds, not how its tree is shaped, and agree with each other,
//! on sets of every size: two sets are equal exactly when they hold the
//! same keys, whatever order they were built in; they compare as their
//! keys in order do (as std's `BTreeSet` does); `partial_cmp` is `cmp`;
//! equal sets hash the same, and sets of different keys do not all hash
//! alike; equal sets display alike (`Display`, also optional, shows what
//! a set holds, not its shape). Among the sets are chains more than 2,000
//! nodes deep (keys inserted in increasing and in decreasing order), whose
//! iteration and ranges must give every key: an iterator or a range with
//! a fixed-size stack loses keys there. The chains are also read on a
//! thread whose stack is 32 KiB, as the chapter's iterators keep their
//! pending nodes on the heap: an iterator or a range that recurses down
//! the tree (or collects its keys by recursion) runs out of stack there,
//! and the observation ends. A trait the crate does not have is not
//! asked.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// What one set was built from, and what it was: its keys by `iter`, and
/// by `len`.
#[derive(Debug, Serialize, Deserialize)]
pub struct SetSeen {
    built_from: Vec<u32>,
    keys: Vec<u32>,
    len: usize,
    /// The keys of `range(RANGE_START..)`.
    #[serde(default)]
    ranged: Vec<u32>,
}

/// The start of the range every set is read through.
const RANGE_START: u32 = 10;

/// The stack of the thread that reads the deep chains again, in bytes:
/// a recursion 2,100 levels deep needs more than that at any size of
/// frame a call can have (at least 16 bytes), while a loop over an
/// explicit stack needs a few hundred.
const SMALL_STACK: usize = 32 * 1024;

/// How long a list must be to be one of the deep chains.
const CHAIN: usize = 2_000;

/// For every pair of sets `(i, j)`: `None` when the crate has no such
/// trait, else each answer.
#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    sets: Vec<SetSeen>,
    /// For each deep chain: the keys `iter` and `range(RANGE_START..)`
    /// counted on a thread whose stack is `SMALL_STACK` bytes (`None`: the
    /// thread could not be made, or panicked).
    #[serde(default)]
    on_a_small_stack: Vec<Option<(usize, usize)>>,
    eq: Option<Vec<Vec<bool>>>,
    partial_cmp: Option<Vec<Vec<Option<i8>>>>,
    cmp: Option<Vec<Vec<i8>>>,
    hash: Option<Vec<u64>>,
    /// The same for non-empty sets.
    non_empty: Vec<SetSeen>,
    non_empty_eq: Option<Vec<Vec<bool>>>,
    non_empty_partial_cmp: Option<Vec<Vec<Option<i8>>>>,
    non_empty_hash: Option<Vec<u64>>,
    /// The hashes of eight sets of one key each, different keys: a hash
    /// of the keys tells some of them apart.
    #[serde(default)]
    single_key_hashes: Option<Vec<u64>>,
    /// Each set by `Display`, when the crate has it.
    #[serde(default)]
    display: Option<Vec<String>>,
    #[serde(default)]
    non_empty_display: Option<Vec<String>>,
}

/// The key lists: each random one also in two other orders (one set, two
/// other shapes), small domains so that equal sets meet, prefixes of one
/// another, and two deep chains.
fn lists(seed: Seed) -> Vec<Vec<u32>> {
    let mut rng = seed.rng();
    let mut lists: Vec<Vec<u32>> = vec![Vec::new(), vec![7], vec![7, 7]];
    for size in [2usize, 3, 5, 8, 13] {
        let keys: Vec<u32> = (0..size).map(|_| rng.u32(0..12)).collect();
        let mut reversed = keys.clone();
        reversed.reverse();
        let mut shuffled = keys.clone();
        rng.shuffle(&mut shuffled);
        lists.push(keys.clone());
        lists.push(reversed);
        lists.push(shuffled);
        let mut shorter = keys;
        shorter.pop();
        lists.push(shorter);
    }
    let depth = 2100 + rng.u32(0..200);
    lists.push((0..depth).collect());
    lists.push((0..depth).rev().collect());
    lists
}

fn sign(order: std::cmp::Ordering) -> i8 {
    order as i8
}

#[cfg(not(xsafe_judge))]
mod observing {
    use super::{SetSeen, sign};
    use std::hash::{Hash, Hasher};
    use std::marker::PhantomData;

    /// Asks whether a type has a trait without requiring it: method lookup
    /// on `&Probe<T>` tries the impls for `Probe<T>` (which need the trait)
    /// before the fallbacks for `&Probe<T>`.
    pub struct Probe<T>(PhantomData<T>);
    impl<T> Probe<T> {
        pub fn of() -> Self {
            Probe(PhantomData)
        }
    }

    pub trait ByEq<T> {
        fn eq_of(&self, a: &T, b: &T) -> Option<bool>;
    }
    impl<T: PartialEq> ByEq<T> for Probe<T> {
        fn eq_of(&self, a: &T, b: &T) -> Option<bool> {
            Some(a == b)
        }
    }
    pub trait NoEq<T> {
        fn eq_of(&self, _: &T, _: &T) -> Option<bool> {
            None
        }
    }
    impl<T> NoEq<T> for &Probe<T> {}

    pub trait ByPartialOrd<T> {
        fn partial_cmp_of(&self, a: &T, b: &T) -> Option<Option<i8>>;
    }
    impl<T: PartialOrd> ByPartialOrd<T> for Probe<T> {
        fn partial_cmp_of(&self, a: &T, b: &T) -> Option<Option<i8>> {
            Some(a.partial_cmp(b).map(sign))
        }
    }
    pub trait NoPartialOrd<T> {
        fn partial_cmp_of(&self, _: &T, _: &T) -> Option<Option<i8>> {
            None
        }
    }
    impl<T> NoPartialOrd<T> for &Probe<T> {}

    pub trait ByOrd<T> {
        fn cmp_of(&self, a: &T, b: &T) -> Option<i8>;
    }
    impl<T: Ord> ByOrd<T> for Probe<T> {
        fn cmp_of(&self, a: &T, b: &T) -> Option<i8> {
            Some(sign(a.cmp(b)))
        }
    }
    pub trait NoOrd<T> {
        fn cmp_of(&self, _: &T, _: &T) -> Option<i8> {
            None
        }
    }
    impl<T> NoOrd<T> for &Probe<T> {}

    pub trait ByHash<T> {
        fn hash_of(&self, value: &T) -> Option<u64>;
    }
    impl<T: Hash> ByHash<T> for Probe<T> {
        fn hash_of(&self, value: &T) -> Option<u64> {
            let mut hasher = std::hash::DefaultHasher::new();
            value.hash(&mut hasher);
            Some(hasher.finish())
        }
    }
    pub trait NoHash<T> {
        fn hash_of(&self, _: &T) -> Option<u64> {
            None
        }
    }
    impl<T> NoHash<T> for &Probe<T> {}

    pub trait ByDisplay<T> {
        fn display_of(&self, value: &T) -> Option<String>;
    }
    impl<T: std::fmt::Display> ByDisplay<T> for Probe<T> {
        fn display_of(&self, value: &T) -> Option<String> {
            Some(value.to_string())
        }
    }
    pub trait NoDisplay<T> {
        fn display_of(&self, _: &T) -> Option<String> {
            None
        }
    }
    impl<T> NoDisplay<T> for &Probe<T> {}

    /// Every pair's answer, or `None` when the first answer says the trait
    /// is missing.
    pub fn pairs<T, R>(sets: &[T], ask: impl Fn(&T, &T) -> Option<R>) -> Option<Vec<Vec<R>>> {
        let mut rows = Vec::new();
        for a in sets {
            let mut row = Vec::new();
            for b in sets {
                row.push(ask(a, b)?);
            }
            rows.push(row);
        }
        Some(rows)
    }

    pub fn seen<'a, I, R>(built_from: &[u32], keys: I, len: usize, ranged: R) -> SetSeen
    where
        I: Iterator<Item = &'a u32>,
        R: Iterator<Item = &'a u32>,
    {
        SetSeen {
            built_from: built_from.to_vec(),
            keys: keys.copied().collect(),
            len,
            ranged: ranged.copied().collect(),
        }
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use observing::*;
    use ordered_tree::{NonEmptySet, OrderedSet};

    let lists = lists(seed);
    let sets: Vec<OrderedSet<u32>> = lists
        .iter()
        .map(|keys| {
            let mut set = OrderedSet::new();
            for key in keys {
                set.insert(*key);
            }
            set
        })
        .collect();
    let non_empty: Vec<(Vec<u32>, NonEmptySet<u32>)> = lists
        .iter()
        .filter_map(|keys| {
            let (first, rest) = keys.split_first()?;
            let mut set = NonEmptySet::new(*first);
            for key in rest {
                set.insert(*key);
            }
            Some((keys.clone(), set))
        })
        .collect();
    let only: Vec<&NonEmptySet<u32>> = non_empty.iter().map(|(_, set)| set).collect();
    let chains: Vec<&OrderedSet<u32>> = lists
        .iter()
        .zip(&sets)
        .filter(|(keys, _)| keys.len() > CHAIN)
        .map(|(_, set)| set)
        .collect();
    let on_a_small_stack = chains
        .iter()
        .map(|set| {
            std::thread::scope(|scope| {
                std::thread::Builder::new()
                    .stack_size(SMALL_STACK)
                    .spawn_scoped(scope, || (set.iter().count(), set.range(RANGE_START..).count()))
                    .ok()
                    .and_then(|thread| thread.join().ok())
            })
        })
        .collect();
    let probe = Probe::<OrderedSet<u32>>::of();
    let probe_non_empty = Probe::<NonEmptySet<u32>>::of();
    Seen {
        sets: lists
            .iter()
            .zip(&sets)
            .map(|(keys, set)| seen(keys, set.iter(), set.len(), set.range(RANGE_START..)))
            .collect(),
        on_a_small_stack,
        eq: pairs(&sets, |a, b| (&probe).eq_of(a, b)),
        partial_cmp: pairs(&sets, |a, b| (&probe).partial_cmp_of(a, b)),
        cmp: pairs(&sets, |a, b| (&probe).cmp_of(a, b)),
        hash: sets.iter().map(|set| (&probe).hash_of(set)).collect(),
        non_empty: non_empty
            .iter()
            .map(|(keys, set)| {
                let whole = set.clone().into_set();
                let ranged: Vec<u32> = whole.range(RANGE_START..).copied().collect();
                seen(keys, set.iter(), set.len().get(), ranged.iter())
            })
            .collect(),
        non_empty_eq: pairs(&only, |a, b| (&probe_non_empty).eq_of(a, b)),
        non_empty_partial_cmp: pairs(&only, |a, b| (&probe_non_empty).partial_cmp_of(a, b)),
        non_empty_hash: only.iter().map(|set| (&probe_non_empty).hash_of(set)).collect(),
        display: sets.iter().map(|set| (&probe).display_of(set)).collect(),
        non_empty_display: only.iter().map(|set| (&probe_non_empty).display_of(set)).collect(),
        single_key_hashes: (0..8u32)
            .map(|key| {
                let mut set = OrderedSet::new();
                set.insert(key * 7 + 1);
                (&probe).hash_of(&set)
            })
            .collect(),
    }
}

/// What a set built from `keys` holds: its keys, sorted, once each.
fn model(keys: &[u32]) -> Vec<u32> {
    let mut keys = keys.to_vec();
    keys.sort_unstable();
    keys.dedup();
    keys
}

fn check_sets(what: &str, sets: &[SetSeen]) -> Vec<Vec<u32>> {
    let mut models = Vec::new();
    for set in sets {
        let expected = model(&set.built_from);
        assert_eq!(
            set.keys.len(),
            expected.len(),
            "{what} built from {} keys ({}) iterates {} keys where it holds {}: iteration must reach every node, however deep the tree",
            set.built_from.len(),
            describe(&set.built_from),
            set.keys.len(),
            expected.len()
        );
        assert_eq!(set.keys, expected, "{what} built from {} must iterate its keys in order", describe(&set.built_from));
        assert_eq!(set.len, expected.len(), "{what} built from {} must say len() {}", describe(&set.built_from), expected.len());
        let ranged: Vec<u32> = expected.iter().copied().filter(|&key| key >= RANGE_START).collect();
        assert_eq!(
            set.ranged.len(),
            ranged.len(),
            "{what} built from {}: range({RANGE_START}..) yields {} keys where the set holds {} from {RANGE_START} on: a range must reach every node in it, however deep the tree",
            describe(&set.built_from),
            set.ranged.len(),
            ranged.len()
        );
        assert_eq!(set.ranged, ranged, "{what} built from {}: range({RANGE_START}..) must yield the keys from {RANGE_START} on, in order", describe(&set.built_from));
        models.push(expected);
    }
    models
}

fn describe(keys: &[u32]) -> String {
    if keys.len() <= 16 {
        format!("{keys:?}")
    } else {
        format!(
            "{} keys from {} to {}",
            keys.len(),
            keys.first().copied().unwrap_or(0),
            keys.last().copied().unwrap_or(0)
        )
    }
}

/// What the learner's set answered for every pair or every set, by trait.
struct Answers<'a> {
    eq: &'a Option<Vec<Vec<bool>>>,
    partial_cmp: &'a Option<Vec<Vec<Option<i8>>>>,
    cmp: &'a Option<Vec<Vec<i8>>>,
    hash: &'a Option<Vec<u64>>,
    display: &'a Option<Vec<String>>,
}

fn check_pairs(what: &str, lists: &[&[u32]], models: &[Vec<u32>], answers: Answers<'_>) {
    let Answers { eq, partial_cmp, cmp, hash, display } = answers;
    for i in 0..models.len() {
        for j in 0..models.len() {
            let (a, b) = (describe(lists[i]), describe(lists[j]));
            let same = models[i] == models[j];
            let order = sign(models[i].cmp(&models[j]));
            if let Some(eq) = eq {
                assert_eq!(
                    eq[i][j], same,
                    "{what}s built from {a} and from {b} hold {} keys, yet `==` says {}: equality is about the keys a set holds, not the shape of its tree",
                    if same { "the same" } else { "different" },
                    eq[i][j]
                );
            }
            if let Some(cmp) = cmp {
                assert_eq!(
                    cmp[i][j], order,
                    "`cmp` of {what}s built from {a} and from {b} must compare their keys in order, as `BTreeSet` does"
                );
            }
            if let Some(partial_cmp) = partial_cmp {
                assert_eq!(
                    partial_cmp[i][j],
                    Some(order),
                    "`partial_cmp` of {what}s built from {a} and from {b} must be `Some` of comparing their keys in order (and agree with `cmp`)"
                );
            }
            if let Some(hash) = hash
                && same
            {
                assert_eq!(
                    hash[i], hash[j],
                    "equal {what}s (built from {a} and from {b}) must hash the same: hash the keys in order, not the tree"
                );
            }
            if let Some(display) = display
                && same
            {
                assert_eq!(
                    display[i], display[j],
                    "equal {what}s (built from {a} and from {b}) must display alike: show the keys in order, as `Debug` does, not the tree"
                );
            }
        }
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let lists = lists(seed);
    let models = check_sets("a set", &seen.sets);
    assert_eq!(models.len(), lists.len(), "one observation per set");
    let chains: Vec<&Vec<u32>> = lists.iter().filter(|keys| keys.len() > CHAIN).collect();
    assert_eq!(seen.on_a_small_stack.len(), chains.len(), "one reading per deep chain");
    for (keys, counted) in chains.iter().zip(&seen.on_a_small_stack) {
        let held = model(keys);
        let from_start = held.iter().filter(|&&key| key >= RANGE_START).count();
        assert_eq!(
            *counted,
            Some((held.len(), from_start)),
            "a chain {} nodes deep ({}), read on a thread whose stack is {} KiB: `iter` and `range({RANGE_START}..)` must count {} and {} keys (left: what they counted, `None` for a panic); an iterator keeps its pending nodes on the heap, an explicit stack, so it needs no deeper call stack for a deeper tree",
            keys.len(),
            describe(keys),
            SMALL_STACK / 1024,
            held.len(),
            from_start
        );
    }
    let all: Vec<&[u32]> = lists.iter().map(Vec::as_slice).collect();
    check_pairs(
        "set",
        &all,
        &models,
        Answers {
            eq: &seen.eq,
            partial_cmp: &seen.partial_cmp,
            cmp: &seen.cmp,
            hash: &seen.hash,
            display: &seen.display,
        },
    );
    if let Some(hashes) = &seen.single_key_hashes {
        let distinct: std::collections::BTreeSet<&u64> = hashes.iter().collect();
        assert!(
            distinct.len() > 1,
            "eight sets of one key each, all different keys, hash alike: the hash must hash the keys (in order, as `BTreeSet` does), not only how many there are"
        );
    }
    let non_empty_models = check_sets("a non-empty set", &seen.non_empty);
    let non_empty_lists: Vec<&[u32]> = lists
        .iter()
        .filter(|keys| !keys.is_empty())
        .map(Vec::as_slice)
        .collect();
    check_pairs(
        "non-empty set",
        &non_empty_lists,
        &non_empty_models,
        Answers {
            eq: &seen.non_empty_eq,
            partial_cmp: &seen.non_empty_partial_cmp,
            cmp: &None,
            hash: &seen.non_empty_hash,
            display: &seen.non_empty_display,
        },
    );
}
