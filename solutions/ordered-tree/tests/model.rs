//! The reference checked against an independent model, std's `BTreeSet`:
//! the grading cases compare a learner's set with this reference, so the
//! reference itself must agree with a set it shares no code with, on
//! generated operation sequences (shrunk to a minimal one on failure) and
//! at sizes far past what a case draws.

use ordered_tree::{NonEmptySet, OrderedSet};
use proptest::prelude::*;
use std::collections::BTreeSet;
use std::ops::Bound;

#[derive(Debug, Clone)]
enum Op {
    Insert(u16),
    Remove(u16),
    Range(Bound<u16>, Bound<u16>),
}

fn bound() -> impl Strategy<Value = Bound<u16>> {
    prop_oneof![
        Just(Bound::Unbounded),
        any::<u16>().prop_map(Bound::Included),
        any::<u16>().prop_map(Bound::Excluded),
    ]
}

fn op(keys: u16) -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..keys).prop_map(Op::Insert),
        2 => (0..keys).prop_map(Op::Remove),
        1 => (bound(), bound()).prop_map(|(a, b)| Op::Range(a, b)),
    ]
}

/// Every observation the model can make of the set, compared.
fn agree(set: &OrderedSet<u16>, model: &BTreeSet<u16>, probe: u16) {
    assert_eq!(set.len(), model.len());
    assert_eq!(set.is_empty(), model.is_empty());
    assert_eq!(set.first(), model.first());
    assert_eq!(set.last(), model.last());
    assert_eq!(set.contains(&probe), model.contains(&probe));
    assert_eq!(set.get(&probe), model.get(&probe));
    assert!(set.iter().eq(model.iter()));
}

/// A range std's `BTreeSet` accepts (it panics on a reversed or empty
/// excluded range, which the exercise does not define).
fn valid(start: Bound<u16>, end: Bound<u16>) -> bool {
    match (start, end) {
        (Bound::Included(a) | Bound::Excluded(a), Bound::Included(b) | Bound::Excluded(b)) => {
            a < b || (a == b && !matches!((start, end), (Bound::Excluded(_), Bound::Excluded(_))))
        }
        _ => true,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn operations_agree_with_btreeset(keys in 1u16..2000, ops in proptest::collection::vec(op(2000), 0..600)) {
        let mut set = OrderedSet::new();
        let mut model = BTreeSet::new();
        for op in ops {
            match op {
                Op::Insert(key) => {
                    let key = key % keys;
                    prop_assert_eq!(set.insert(key), model.insert(key));
                    agree(&set, &model, key);
                }
                Op::Remove(key) => {
                    let key = key % keys;
                    prop_assert_eq!(set.remove(&key), model.take(&key));
                    agree(&set, &model, key);
                }
                Op::Range(start, end) => {
                    if valid(start, end) {
                        prop_assert!(set.range((start, end)).eq(model.range((start, end))));
                    }
                }
            }
        }
    }

    #[test]
    fn non_empty_sets_agree_with_btreeset(first in any::<i32>(), rest in proptest::collection::vec(any::<i32>(), 0..300)) {
        let mut set = NonEmptySet::new(first);
        let mut model = BTreeSet::from([first]);
        for key in rest {
            prop_assert_eq!(set.insert(key), model.insert(key));
            prop_assert_eq!(set.min(), model.first().expect("non-empty"));
            prop_assert_eq!(set.max(), model.last().expect("non-empty"));
            prop_assert_eq!(set.len().get(), model.len());
        }
        prop_assert!(set.iter().eq(model.iter()));
    }
}

/// 100,000 keys in a shuffled order, then every other one removed: the
/// set agrees with the model at every size on the way. (The tree is not
/// balanced: keys in a random order keep it about 2 ln n deep.)
#[test]
fn a_hundred_thousand_keys() {
    const KEYS: u64 = 100_000;
    // A full-period linear congruential sequence modulo 2^17, keeping the
    // values below KEYS: every key once, in a scrambled order.
    let mut next = 12_345u64;
    let mut keys = Vec::with_capacity(KEYS as usize);
    while keys.len() < KEYS as usize {
        next = (next * 1_103_515_245 + 12_345) % (1 << 17);
        if next < KEYS {
            keys.push(next);
        }
    }
    let mut set = OrderedSet::new();
    let mut model = BTreeSet::new();
    for (count, key) in keys.iter().enumerate() {
        assert_eq!(set.insert(*key), model.insert(*key));
        if count % 10_000 == 0 {
            agree_u64(&set, &model);
        }
    }
    agree_u64(&set, &model);
    for key in keys.iter().step_by(2) {
        assert_eq!(set.remove(key), model.take(key));
    }
    agree_u64(&set, &model);
    assert!(set.range(40_000..60_000).eq(model.range(40_000..60_000)));
}

fn agree_u64(set: &OrderedSet<u64>, model: &BTreeSet<u64>) {
    assert_eq!(set.len(), model.len());
    assert_eq!(set.first(), model.first());
    assert_eq!(set.last(), model.last());
    assert!(set.iter().eq(model.iter()));
}

/// 20,000 keys in increasing order make a chain 20,000 nodes deep, far
/// deeper than a fixed-size iterator stack: on a thread with a main
/// thread's 8 MiB stack, as the cases run, the set iterates, answers
/// ranges and drops. (Deeper chains are the unbalanced tree's known limit:
/// each insert walks the whole chain, and dropping nested boxes recurses.)
#[test]
fn a_chain_twenty_thousand_deep() {
    let chain = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(|| {
            const DEPTH: u32 = 20_000;
            let mut set = OrderedSet::new();
            for key in 0..DEPTH {
                assert!(set.insert(key));
            }
            assert_eq!(set.len(), DEPTH as usize);
            assert!(set.iter().copied().eq(0..DEPTH));
            assert!(set.range(5_000..).copied().eq(5_000..DEPTH));
            assert_eq!(set.last(), Some(&(DEPTH - 1)));
            assert_eq!(set.remove(&(DEPTH - 1)), Some(DEPTH - 1));
            drop(set);
        })
        .expect("a thread");
    chain.join().expect("the chain test passes");
}
