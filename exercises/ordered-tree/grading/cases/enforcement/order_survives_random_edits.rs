//! Proves enforcement: under many sequences of inserts and removes, checked
//! against std's `BTreeSet`, the tree stays ordered and holds exactly the
//! keys it should. The sequences are drawn with proptest from a fixed seed,
//! the same in every run (so a wrong solution fails in every run); the key
//! values change with the seed. When one goes wrong, the message shows the
//! smallest sequence that proptest's shrinking finds going wrong too.
use crate::support::{TreeView, assert_ordered, keys_like};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use xsafe_case::proptest::collection::vec;
use xsafe_case::proptest::prelude::*;
use xsafe_case::proptest::strategy::ValueTree;
use xsafe_case::{Seed, shrink};

const SEQUENCES: usize = 100;
const RANKS: usize = 64;
/// How many smaller sequences shrinking may try.
const SHRINK_BUDGET: usize = 2_000;

/// One edit: insert (`true`) or remove (`false`) the key of a rank.
type Edit = (bool, u32);

/// The sequences of edits (0 to 199 each), as trees that can shrink.
fn sequences() -> Vec<Box<dyn ValueTree<Value = Vec<Edit>>>> {
    let strategy = vec((any::<bool>(), 0..RANKS as u32), 0..200).boxed();
    let mut runner = shrink::runner(0x0bde_7ee5);
    (0..SEQUENCES).map(|_| shrink::draw(&strategy, &mut runner)).collect()
}

/// What a sequence did: what each edit returned (`insert`'s bool as
/// `Some(0)`/`None`, `remove`'s result), and the tree at the end.
type Run = (Vec<Option<u32>>, TreeView);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    runs: Vec<Run>,
    /// For the first sequence that went wrong, the smallest sequence
    /// shrinking found going wrong, and what it did (only for the message:
    /// the verdict comes from `runs`).
    smaller: Option<(usize, Vec<Edit>, Run)>,
}

/// Runs one sequence on the learner's set.
#[cfg(not(xsafe_judge))]
fn run(keys: &[u32], edits: &[Edit]) -> Run {
    use crate::support::view;
    use ordered_tree::OrderedSet;

    let mut set = OrderedSet::new();
    let results = edits
        .iter()
        .map(|&(is_insert, rank)| {
            let key = keys[rank as usize];
            if is_insert {
                set.insert(key).then_some(0)
            } else {
                set.remove(&key)
            }
        })
        .collect();
    (results, view(&set))
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    let keys = keys_like(seed, &(0..RANKS as u32).collect::<Vec<_>>(), RANKS);
    let mut runs = Vec::new();
    let mut smaller = None;
    for (number, tree) in sequences().into_iter().enumerate() {
        let edits = tree.current();
        let got = run(&keys, &edits);
        // The judge's own check, run here only to know when to shrink.
        // Shrinking runs the set on sequences that may make it panic, or
        // that fail the check: both quietly.
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let wrong = |edits: &Vec<Edit>, got: &Run| {
            catch_unwind(AssertUnwindSafe(|| check(&keys, number, edits, got))).is_err()
        };
        if smaller.is_none() && wrong(&edits, &got) {
            let edits = shrink::smallest_failing(tree, SHRINK_BUDGET, |edits| {
                catch_unwind(AssertUnwindSafe(|| run(&keys, edits))).is_ok_and(|got| wrong(edits, &got))
            });
            let got = catch_unwind(AssertUnwindSafe(|| run(&keys, &edits)));
            smaller = got.ok().map(|got| (number, edits, got));
        }
        std::panic::set_hook(hook);
        runs.push(got);
    }
    Seen { runs, smaller }
}

/// Checks one sequence's run against the model: a failed assertion is
/// the verdict "failed".
fn check(keys: &[u32], number: usize, edits: &[Edit], (results, tree): &Run) {
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

pub fn judge(seed: Seed, seen: Seen) {
    use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

    let keys = keys_like(seed, &(0..RANKS as u32).collect::<Vec<_>>(), RANKS);
    let sequences = sequences();
    assert_eq!(seen.runs.len(), sequences.len());
    for (number, (tree, got)) in sequences.iter().zip(&seen.runs).enumerate() {
        let edits = tree.current();
        let Err(failure) = catch_unwind(AssertUnwindSafe(|| check(&keys, number, &edits, got))) else {
            continue;
        };
        // The verdict is this failure. A smaller sequence that the check
        // also fails, if the observation has one, is told first.
        if let Some((of, smaller, smaller_got)) = &seen.smaller
            && *of == number
            && let Err(small) = catch_unwind(AssertUnwindSafe(|| check(&keys, number, smaller, smaller_got)))
        {
            let text = |payload: &(dyn std::any::Any + Send)| {
                payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|text| (*text).to_owned()))
                    .unwrap_or_default()
            };
            let edits: Vec<String> = smaller
                .iter()
                .map(|&(is_insert, rank)| format!("{}({})", if is_insert { "insert" } else { "remove" }, keys[rank as usize]))
                .collect();
            panic!(
                "{}\nThe smallest sequence shrinking found going wrong, on a new set: [{}]\nThere: {}",
                text(&*failure),
                edits.join(", "),
                text(&*small)
            );
        }
        resume_unwind(failure);
    }
}
