//! Proves enforcement: every way the crate offers to make or copy a set
//! keeps the order and counts its keys: `collect` (with duplicates, out of
//! order), `extend` by value, and, whenever the crate has them, `extend`
//! by reference, `Default`, `Clone` (a copy that later edits of the original
//! do not reach), `From<Vec<_>>`, and the round trip through `NonEmptySet`.
//! A route that skipped `insert` would hand out a tree out of order or a
//! `len` that lies.
use crate::support::{TreeView, assert_ordered, keys_like, sorted};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Ranks collected: out of order, with duplicates.
const COLLECTED: [u32; 12] = [5, 2, 9, 2, 7, 0, 5, 11, 3, 9, 1, 5];
/// Ranks extended with afterwards: some already held.
const EXTENDED: [u32; 6] = [4, 9, 10, 0, 8, 4];
const RANKS: usize = 14;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    collected: TreeView,
    extended: TreeView,
    extended_by_ref: Option<TreeView>,
    default: Option<TreeView>,
    /// The copy, and the original after it was edited.
    cloned: Option<(TreeView, TreeView)>,
    from_vec: Option<TreeView>,
    /// Through `into_non_empty`, two inserts and `into_set`.
    round_trip: TreeView,
    non_empty_clone: Option<Vec<u32>>,
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
    let non_empty_probe = Probe::<NonEmptySet<u32>>::of();
    let non_empty = NonEmptySet::new(keys(seed, &[3])[0]);
    let non_empty_clone = (&non_empty_probe)
        .by_clone(&non_empty)
        .map(|copy| copy.iter().copied().collect());
    Seen {
        collected: view(&collected),
        extended: view(&extended),
        extended_by_ref,
        default,
        cloned,
        from_vec,
        round_trip,
        non_empty_clone,
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
}
