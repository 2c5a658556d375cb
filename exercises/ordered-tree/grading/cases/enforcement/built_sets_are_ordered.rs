//! Proves enforcement: every way the crate offers to make or copy a set
//! keeps the order and counts its keys: `collect` (with duplicates, out of
//! order), `extend` by value, and, whenever the crate has them, `extend`
//! by reference, `Default`, `Clone` (a copy that later edits of the original
//! do not reach), `From<Vec<_>>`, and the round trip through `NonEmptySet`.
//! A route that skipped `insert` would hand out a tree out of order or a
//! `len` that lies.
//!
//! `From<Vec<_>>` builds the very tree `collect()` builds from the same
//! keys, and `extend` by reference the tree `extend` by value builds: each
//! key goes through `insert`, in the order given (a `From` that sorts the
//! keys first builds a tree that is one long path).
//!
//! Every route that builds a set from many keys also builds the set
//! `collect()` builds when keys are equal by `Ord` but not the same: of
//! such keys, the set holds the first one given, as `insert` keeps the key
//! it holds. Keys ordered by value alone and tagged with their place show
//! which copy stayed, in inputs of 40, 64 and 240 keys with duplicates
//! everywhere (a `sort_unstable` of so many keys may move the first copy
//! behind another), given whole to each route and, for `extend`, also
//! half after a set collected from the other half.
use crate::support::{TreeView, assert_ordered, keys_like, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Ranks collected: out of order, with duplicates.
const COLLECTED: [u32; 12] = [5, 2, 9, 2, 7, 0, 5, 11, 3, 9, 1, 5];
/// Ranks extended with afterwards: some already held.
const EXTENDED: [u32; 6] = [4, 9, 10, 0, 8, 4];
const RANKS: usize = 14;

/// Ranks of the first tagged input: 40 keys, 14 values, repeated next to
/// each other, far apart, at both ends.
const PLACED: [u32; 40] = [
    7, 3, 11, 3, 0, 9, 5, 3, 12, 1, 7, 7, 2, 10, 4, 0, 8, 6, 11, 3, 13, 5, 9, 1, 7, 12, 2, 0, 6, 3,
    10, 4, 13, 13, 8, 1, 5, 11, 2, 7,
];
/// Values among the tagged inputs' keys.
const PLACED_RANKS: usize = 16;

/// The tagged inputs' keys: the values of [`PLACED`], and 64 and 240 keys
/// over 16 values in fixed scattered orders. A key's tag is its index.
fn placed_inputs(seed: Seed) -> [Vec<u32>; 3] {
    let scattered: Vec<u32> = (0..64u32).map(|i| (i * 7 + i * i % 5) % 16).collect();
    let long: Vec<u32> = (0..240u32).map(|i| (i * 5 + i * i % 7) % 16).collect();
    let seed = Seed(seed.0 ^ 0x7ac5);
    [
        keys_like(seed, &PLACED, PLACED_RANKS),
        keys_like(seed, &scattered, PLACED_RANKS),
        keys_like(seed, &long, PLACED_RANKS),
    ]
}

/// A set built from one of [`placed_inputs`] by one route.
#[derive(Debug, Serialize, Deserialize)]
pub struct Kept {
    /// How the set was built, in words.
    route: String,
    /// Which of the inputs.
    input: usize,
    /// The tree, by value.
    tree: TreeView,
    /// The keys in order, each as (value, the place in the input of the
    /// copy the tree holds), read from `root_node`.
    places: Vec<(u32, u32)>,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    collected: TreeView,
    extended: TreeView,
    extended_by_ref: Option<TreeView>,
    /// The set `extended_by_ref` started from, extended by value with the
    /// same keys: the tree it must equal.
    extended_by_value: TreeView,
    default: Option<TreeView>,
    /// The copy, and the original after it was edited.
    cloned: Option<(TreeView, TreeView)>,
    from_vec: Option<TreeView>,
    /// Through `into_non_empty`, two inserts and `into_set`.
    round_trip: TreeView,
    non_empty_clone: Option<Vec<u32>>,
    /// Sets built from tagged keys, equal by value.
    kept: Vec<Kept>,
}

fn keys(seed: Seed, ranks: &[u32]) -> Vec<u32> {
    keys_like(seed, ranks, RANKS)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{
        ByClone, ByDefault, ByExtendRef, ByFromVec, NoClone, NoDefault, NoExtendRef, NoFromVec,
        Probe, view,
    };
    use ordered_tree::{NonEmptySet, OrderedSet};

    let collected_keys = keys(seed, &COLLECTED);
    let extended_keys = keys(seed, &EXTENDED);
    let collected: OrderedSet<u32> = collected_keys.iter().copied().collect();
    let mut extended = collected.iter().copied().collect::<OrderedSet<u32>>();
    extended.extend(extended_keys.iter().copied());

    let probe = Probe::<OrderedSet<u32>>::of();
    let extended_by_value = {
        let mut set: OrderedSet<u32> = collected_keys.iter().copied().collect();
        set.extend(extended_keys.iter().copied());
        view(&set)
    };
    let extended_by_ref = {
        let mut set: OrderedSet<u32> = collected_keys.iter().copied().collect();
        (&probe)
            .by_extend_ref(&mut set, &extended_keys)
            .then(|| view(&set))
    };
    let default = (&probe).by_default().map(|set| view(&set));
    let cloned = (&probe).by_clone(&collected).map(|copy| {
        let mut original = collected.iter().copied().collect::<OrderedSet<u32>>();
        let copy_of_original = (&probe).by_clone(&original);
        original.insert(keys(seed, &[13])[0]);
        original.remove(&collected_keys[0]);
        let copy = copy_of_original.unwrap_or(copy);
        (view(&copy), view(&original))
    });
    let from_vec = (&probe).by_from_vec(collected_keys.clone()).map(|set| view(&set));

    let round_trip = match collected.iter().copied().collect::<OrderedSet<u32>>().into_non_empty() {
        Ok(mut set) => {
            set.insert(keys(seed, &[12])[0]);
            set.insert(keys(seed, &[6])[0]);
            view(&set.into_set())
        }
        Err(_) => TreeView {
            nodes: Vec::new(),
            len: usize::MAX,
        },
    };
    let kept = placed::built(seed);
    let non_empty_probe = Probe::<NonEmptySet<u32>>::of();
    let non_empty = NonEmptySet::new(keys(seed, &[3])[0]);
    let non_empty_clone = (&non_empty_probe)
        .by_clone(&non_empty)
        .map(|copy| copy.iter().copied().collect());
    Seen {
        collected: view(&collected),
        extended: view(&extended),
        extended_by_ref,
        extended_by_value,
        default,
        cloned,
        from_vec,
        round_trip,
        non_empty_clone,
        kept,
    }
}

/// Tagged keys and the routes that build sets of them.
#[cfg(not(xsafe_judge))]
mod placed {
    use super::{Kept, placed_inputs};
    use crate::support::{Probe, view};
    use ordered_tree::{Node, OrderedSet};
    use std::cmp::Ordering;
    use xsafe_case::Seed;

    /// A key ordered by `value` alone: two keys with one value are equal
    /// for the set, and `place` tells which of them it holds.
    #[derive(Debug, Clone, Copy)]
    pub struct Placed {
        value: u32,
        place: u32,
    }

    impl From<Placed> for u32 {
        fn from(key: Placed) -> u32 {
            key.value
        }
    }

    impl PartialEq for Placed {
        fn eq(&self, other: &Self) -> bool {
            self.value == other.value
        }
    }

    impl Eq for Placed {}

    impl PartialOrd for Placed {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }

    impl Ord for Placed {
        fn cmp(&self, other: &Self) -> Ordering {
            self.value.cmp(&other.value)
        }
    }

    /// `From<Vec<Placed>>`, if the set has it (see `support::Probe`).
    trait ByFromPlaced<T> {
        fn placed_from_vec(&self, keys: Vec<Placed>) -> Option<T>;
    }
    impl<T: From<Vec<Placed>>> ByFromPlaced<T> for Probe<T> {
        fn placed_from_vec(&self, keys: Vec<Placed>) -> Option<T> {
            Some(T::from(keys))
        }
    }
    trait NoFromPlaced<T> {
        fn placed_from_vec(&self, _: Vec<Placed>) -> Option<T> {
            None
        }
    }
    impl<T> NoFromPlaced<T> for &Probe<T> {}

    /// `Extend<&Placed>`, if the set has it.
    trait ByExtendPlaced<T> {
        fn placed_extend_ref(&self, target: &mut T, keys: &[Placed]) -> bool;
    }
    impl<T: for<'k> Extend<&'k Placed>> ByExtendPlaced<T> for Probe<T> {
        fn placed_extend_ref(&self, target: &mut T, keys: &[Placed]) -> bool {
            target.extend(keys.iter());
            true
        }
    }
    trait NoExtendPlaced<T> {
        fn placed_extend_ref(&self, _: &mut T, _: &[Placed]) -> bool {
            false
        }
    }
    impl<T> NoExtendPlaced<T> for &Probe<T> {}

    /// The keys of the tree in order, with their places, read through
    /// `root_node` without recursion.
    fn places(set: &OrderedSet<Placed>) -> Vec<(u32, u32)> {
        let mut places = Vec::new();
        let mut pending: Vec<&Node<Placed>> = Vec::new();
        let mut next = set.root_node();
        loop {
            while let Some(node) = next {
                pending.push(node);
                next = node.left();
            }
            let Some(node) = pending.pop() else { break };
            places.push((node.key().value, node.key().place));
            next = node.right();
        }
        places
    }

    /// Each input built into a set by each route the crate has.
    pub fn built(seed: Seed) -> Vec<Kept> {
        let probe = Probe::<OrderedSet<Placed>>::of();
        let mut kept = Vec::new();
        for (input, values) in placed_inputs(seed).into_iter().enumerate() {
            let keys: Vec<Placed> = (0u32..)
                .zip(values)
                .map(|(place, value)| Placed { value, place })
                .collect();
            let (head, tail) = keys.split_at(keys.len() / 2);
            let mut record = |route: &str, set: &OrderedSet<Placed>| {
                kept.push(Kept {
                    route: route.to_string(),
                    input,
                    tree: view(set),
                    places: places(set),
                });
            };
            let collected: OrderedSet<Placed> = keys.iter().copied().collect();
            record("collect()", &collected);
            let mut extended: OrderedSet<Placed> = head.iter().copied().collect();
            extended.extend(tail.iter().copied());
            record(
                "collect() of the first half, then extend() with the rest",
                &extended,
            );
            if let Some(set) = (&probe).placed_from_vec(keys.clone()) {
                record("From<Vec<_>>", &set);
            }
            let mut by_ref: OrderedSet<Placed> = head.iter().copied().collect();
            if (&probe).placed_extend_ref(&mut by_ref, tail) {
                record(
                    "collect() of the first half, then extend() with `&key`s of the rest",
                    &by_ref,
                );
            }
            let mut whole_by_ref = OrderedSet::new();
            if (&probe).placed_extend_ref(&mut whole_by_ref, &keys) {
                record(
                    "extend() of an empty set with `&key`s of the whole input",
                    &whole_by_ref,
                );
            }
        }
        kept
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let collected = sorted(&keys(seed, &COLLECTED));
    let mut extended = collected.clone();
    extended.extend(keys(seed, &EXTENDED));
    let extended = sorted(&extended);
    assert_eq!(
        assert_ordered(&seen.collected),
        collected,
        "collect() must give an ordered set of each distinct key once, with len() counting them"
    );
    assert_eq!(
        assert_ordered(&seen.extended),
        extended,
        "extend() must add each new key once, in order, and count it"
    );
    if let Some(tree) = &seen.extended_by_ref {
        assert_eq!(assert_ordered(tree), extended, "extend() with `&key`s must keep the order and count");
        assert_eq!(
            tree, &seen.extended_by_value,
            "extend() with `&key`s must build the very tree extend() by value builds from the same keys (each key through insert, in the order given): here the two trees differ in shape"
        );
    }
    if let Some(tree) = &seen.default {
        assert_eq!(assert_ordered(tree), Vec::<u32>::new(), "OrderedSet::default() must be empty");
    }
    if let Some((copy, original)) = &seen.cloned {
        assert_eq!(
            assert_ordered(copy),
            collected,
            "a clone must hold the original's keys, in order, and stay as it was when the original changes"
        );
        let mut changed = collected.clone();
        changed.retain(|&key| key != keys(seed, &COLLECTED)[0]);
        changed.push(keys(seed, &[13])[0]);
        assert_eq!(assert_ordered(original), sorted(&changed), "the original must change, not the clone");
    }
    if let Some(tree) = &seen.from_vec {
        assert_eq!(
            assert_ordered(tree),
            collected,
            "From<Vec<_>> must give an ordered set of each distinct key once"
        );
        assert_eq!(
            tree, &seen.collected,
            "From<Vec<_>> must build the very tree collect() builds from the same keys (each key through insert, in the order given), not the same keys in another shape: sorting them first, for one, makes a tree that is one long path"
        );
    }
    let mut round_trip = collected.clone();
    round_trip.extend(keys(seed, &[12, 6]));
    assert_eq!(
        assert_ordered(&seen.round_trip),
        sorted(&round_trip),
        "into_non_empty(), insert() on the NonEmptySet and into_set() must keep every key, in order"
    );
    if let Some(keys_of_copy) = &seen.non_empty_clone {
        assert_eq!(keys_of_copy, &keys(seed, &[3]), "a cloned NonEmptySet holds the same keys");
    }
    judge_kept(seed, &seen.kept);
}

/// Each set of tagged keys holds each value once, in order, as the copy
/// given first.
fn judge_kept(seed: Seed, kept: &[Kept]) {
    let inputs = placed_inputs(seed);
    for input in 0..inputs.len() {
        let routes = kept.iter().filter(|built| built.input == input).count();
        assert!(
            routes >= 2,
            "input {input}: collect() and extend() must both have been recorded"
        );
    }
    for built in kept {
        let Some(values) = inputs.get(built.input) else {
            panic!(
                "a set built from input {}, which the case does not have",
                built.input
            );
        };
        let route = &built.route;
        assert_eq!(
            assert_ordered(&built.tree),
            sorted(values),
            "{route}, from {} keys with repeated values: an ordered set of each value once, with len() counting them",
            values.len()
        );
        let mut first_places: Vec<(u32, u32)> = Vec::new();
        for (place, &value) in (0u32..).zip(values) {
            if !first_places.iter().any(|&(seen, _)| seen == value) {
                first_places.push((value, place));
            }
        }
        first_places.sort_unstable();
        let held: Vec<u32> = built.places.iter().map(|&(value, _)| value).collect();
        let expected: Vec<u32> = first_places.iter().map(|&(value, _)| value).collect();
        assert_eq!(
            held, expected,
            "{route}: the walk of root_node must meet each value once, in order"
        );
        for (&(value, place), &(_, first)) in built.places.iter().zip(&first_places) {
            let given: Vec<u32> = (0u32..)
                .zip(values)
                .filter(|&(_, &other)| other == value)
                .map(|(place, _)| place)
                .collect();
            assert_eq!(
                place, first,
                "{route} (input {}): of the keys equal to {value}, given at places {given:?}, the set holds the one from place {place}; collect() holds the first one given, as insert keeps the key a set holds",
                built.input
            );
        }
    }
}
