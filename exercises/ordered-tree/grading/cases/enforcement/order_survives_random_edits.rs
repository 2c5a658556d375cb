//! Proves enforcement: under many sequences of inserts and removes, checked
//! against std's `BTreeSet`, the tree stays ordered and holds exactly the
//! keys it should. The sequences are the same in every run (so a wrong
//! solution fails in every run); the key values change with the seed.
use crate::support::{TreeView, assert_ordered, keys_like};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use xsafe_case::{Rng, Seed};

const SEQUENCES: usize = 100;
const RANKS: usize = 64;

/// One edit: insert (`true`) or remove (`false`) the key of a rank.
type Edit = (bool, u32);

/// The sequences of edits: fixed, from a constant seed.
fn sequences() -> Vec<Vec<Edit>> {
    let mut rng = Rng::with_seed(0x0bde_7ee5);
    (0..SEQUENCES)
        .map(|_| {
            let length = rng.usize(0..200);
            (0..length).map(|_| (rng.bool(), rng.u32(0..RANKS as u32))).collect()
        })
        .collect()
}

/// What a sequence did: what each edit returned (`insert`'s bool as
/// `Some(0)`/`None`, `remove`'s result), and the tree at the end.
#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    runs: Vec<(Vec<Option<u32>>, TreeView)>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::view;
    use ordered_tree::OrderedSet;

    let keys = keys_like(seed, &(0..RANKS as u32).collect::<Vec<_>>(), RANKS);
    let runs = sequences()
        .into_iter()
        .map(|edits| {
            let mut set = OrderedSet::new();
            let results = edits
                .into_iter()
                .map(|(is_insert, rank)| {
                    let key = keys[rank as usize];
                    if is_insert {
                        set.insert(key).then_some(0)
                    } else {
                        set.remove(&key)
                    }
                })
                .collect();
            (results, view(&set))
        })
        .collect();
    Seen { runs }
}

pub fn judge(seed: Seed, seen: Seen) {
    let keys = keys_like(seed, &(0..RANKS as u32).collect::<Vec<_>>(), RANKS);
    let sequences = sequences();
    assert_eq!(seen.runs.len(), sequences.len());
    for (number, (edits, (results, tree))) in sequences.iter().zip(&seen.runs).enumerate() {
        assert_eq!(results.len(), edits.len());
        let mut model = BTreeSet::new();
        for (step, (&(is_insert, rank), result)) in edits.iter().zip(results).enumerate() {
            let key = keys[rank as usize];
            let expected = if is_insert {
                model.insert(key).then_some(0)
            } else {
                model.take(&key)
            };
            let what = if is_insert { "insert" } else { "remove" };
            assert_eq!(
                *result, expected,
                "sequence {number}, edit {step}: {what}({key}) returned the wrong answer (for insert, Some(0) means true)"
            );
        }
        assert_eq!(
            assert_ordered(tree),
            model.into_iter().collect::<Vec<_>>(),
            "sequence {number}: after {} edits the tree does not hold the keys it should",
            edits.len()
        );
    }
}
