//! Proves enforcement (and consumption): on fixed sequences of operations
//! over the whole public API (`insert`, `remove`, `get`, `contains`,
//! `first`, `last`, `len`, `is_empty`, `iter` with its `len()` and clones,
//! `range` with every kind of bound, `extend` by value and by reference,
//! `collect`, `From<Vec<_>>`, `Default`, `Clone`, `{:?}` and `{:#?}`,
//! `into_non_empty`/`into_set` and every method of `NonEmptySet`), with
//! few distinct keys so that keys repeat, and `String`-named keys, the
//! learner's set answers and holds, step by step, exactly what the
//! reference solution does: the same results, the same keys (the first of
//! two equal keys stays), read both by `iter` and by a walk of
//! `root_node`, and the same `len`. An inverted range (a start above the
//! end, of any kind of bound, or both ends excluded at one key, whether
//! the set holds it or not) may yield nothing or panic, as std's
//! `BTreeSet` does; it never yields a key.
use crate::support::diff::{End, Op};
use crate::support::diff::names;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

use End::{Ex, In, Open};
use Op::*;

/// Distinct key names; every sequence uses ranks below this.
const RANKS: usize = 8;

/// The sequences: their names (for the judge's messages) and operations.
const SEQUENCES: [(&str, &[Op]); 3] = [
    (
        "insert, look up, range, remove",
        &[
            Insert(3),
            Insert(1),
            Insert(5),
            Insert(3),
            Insert(0),
            Insert(7),
            Insert(4),
            Ends,
            Walk,
            Debug,
            Get(3),
            Get(2),
            Contains(5),
            Contains(6),
            Range(In(1), Ex(5)),
            Range(In(1), In(5)),
            Range(Open, Ex(4)),
            Range(Open, In(4)),
            Range(In(4), Open),
            Range(Open, Open),
            Range(Ex(1), In(5)),
            Range(Ex(1), Ex(3)),
            Range(Ex(0), Ex(7)),
            Range(In(2), Ex(2)),
            Range(Ex(2), In(2)),
            Range(In(6), In(6)),
            Range(Ex(6), Open),
            Range(Ex(2), Ex(2)),
            Range(In(5), Ex(2)),
            Range(Ex(7), In(0)),
            Range(Ex(3), Ex(3)),
            Range(Ex(5), Ex(5)),
            Range(Ex(5), In(3)),
            Range(Ex(5), Ex(3)),
            Range(Ex(4), In(1)),
            Range(In(4), In(1)),
            Remove(3),
            Remove(3),
            Remove(2),
            Get(3),
            Remove(1),
            Walk,
            Ends,
            CloneThenInsert(6),
            Remove(0),
            Remove(7),
            Remove(4),
            Remove(5),
            Remove(6),
            Ends,
            Walk,
            Debug,
            Remove(5),
            Range(Open, Open),
            Insert(2),
            Debug,
        ],
    ),
    (
        "extend, collect, From<Vec>, Default",
        &[
            Extend(&[4, 2, 6, 2, 4, 1]),
            ExtendRef(&[2, 7, 0, 7]),
            Get(2),
            Get(7),
            Walk,
            Ends,
            FromVec(&[5, 3, 5, 1, 3, 5]),
            Get(5),
            Get(3),
            Walk,
            Collect(&[6, 6, 0, 2, 0]),
            Get(6),
            Get(0),
            Debug,
            Extend(&[0, 6, 3]),
            Get(0),
            CloneThenInsert(3),
            Default,
            Ends,
            Extend(&[]),
            Ends,
            ExtendRef(&[3, 3]),
            Get(3),
            Collect(&[]),
            Ends,
            FromVec(&[]),
            Debug,
        ],
    ),
    (
        "NonEmptySet",
        &[
            ToNonEmpty,
            Insert(4),
            Insert(2),
            Insert(6),
            ToNonEmpty,
            NonEmptyInsert(4),
            NonEmptyInsert(1),
            NonEmptyInsert(7),
            NonEmptyInsert(1),
            NonEmptyContains(7),
            NonEmptyContains(3),
            NonEmptyRead,
            ToSet,
            Walk,
            Get(1),
            Remove(4),
            NonEmptyNew(5),
            NonEmptyRead,
            NonEmptyInsert(5),
            NonEmptyInsert(3),
            NonEmptyInsert(6),
            NonEmptyRead,
            ToSet,
            Ends,
            Remove(5),
            Remove(3),
            Remove(6),
            Remove(0),
            ToNonEmpty,
            Ends,
        ],
    ),
];

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each sequence, each step's "result => state".
    traces: Vec<Vec<String>>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::diff::learner::Model;

    crate::support::diff::quiet_hook();
    let traces = SEQUENCES
        .iter()
        .map(|(_, ops)| {
            let mut model = Model::new(names(seed, RANKS));
            (0u32..)
                .zip(ops.iter())
                .map(|(step, &op)| {
                    let result = model.apply(step, op);
                    format!("{result} => {}", model.snapshot())
                })
                .collect()
        })
        .collect();
    Seen { traces }
}

#[cfg(xsafe_judge)]
pub fn judge(seed: Seed, seen: Seen) {
    use crate::support::diff::inverted;
    use crate::support::diff::reference::Model;

    assert_eq!(seen.traces.len(), SEQUENCES.len(), "one trace per sequence");
    let names = names(seed, RANKS);
    for ((name, ops), trace) in SEQUENCES.iter().zip(&seen.traces) {
        assert_eq!(
            trace.len(),
            ops.len(),
            "sequence \"{name}\": one record per step"
        );
        let mut model = Model::new(names.clone());
        for ((step, &op), got) in (0u32..).zip(ops.iter()).zip(trace) {
            let result = model.apply(step, op);
            let expected = format!("{result} => {}", model.snapshot());
            if let Range(start, end) = op
                && inverted(start, end)
                && got.starts_with("a panic =>")
            {
                assert_eq!(
                    got,
                    &format!("a panic => {}", model.snapshot()),
                    "sequence \"{name}\" (keys by rank: {names:?}), step {step}, {op:?}: after the inverted range panicked, the set must be as it was"
                );
                continue;
            }
            assert_eq!(
                got, &expected,
                "sequence \"{name}\" (keys by rank: {names:?}), step {step}, {op:?}: the learner's set (left) differs from the reference's (right); a key is shown as name#tag, the tag being 100 x the step that made it + its place in that step's list"
            );
        }
    }
}
