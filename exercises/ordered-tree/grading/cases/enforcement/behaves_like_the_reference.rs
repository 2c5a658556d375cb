//! Proves enforcement (and consumption): on fixed sequences of operations
//! over the whole public API (`insert`, `remove`, `get`, `contains`,
//! `first`, `last`, `len`, `is_empty`, `iter` with its `len()` and clones,
//! `range` with every kind of bound, `extend` by value and by reference,
//! `collect`, `From<Vec<_>>`, `Default`, `Clone`, `{:?}` and `{:#?}`,
//! `into_non_empty`/`into_set` and every method of `NonEmptySet`), and on
//! sequences of the same operations drawn with proptest from a fixed seed
//! (the same in every run), with few distinct keys so that keys repeat,
//! and `String`-named keys, the learner's set answers and holds, step by
//! step, exactly what the reference solution does: the same results, the
//! same keys (the first of two equal keys stays), read both by `iter` and
//! by a walk of `root_node`, and the same `len`. An inverted range (a
//! start above the end, of any kind of bound, or both ends excluded at one
//! key, whether the set holds it or not) may yield nothing or panic, as
//! std's `BTreeSet` does; it never yields a key. When a drawn sequence
//! goes wrong, the message also shows the smallest sequence that
//! proptest's shrinking finds going wrong against the cases' own model
//! (`support::diff::sorted_vec_set`), checked by the judge against the
//! reference before it is told.
use crate::support::diff::names;
use crate::support::diff::{End, Op};
use serde::{Deserialize, Serialize};
use std::panic::{AssertUnwindSafe, catch_unwind};
use xsafe_case::proptest::collection::vec;
use xsafe_case::proptest::strategy::{Strategy, ValueTree};
use xsafe_case::{Seed, shrink};

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

/// How many sequences are drawn, and how many operations each has at
/// most (40 on average).
const DRAWN: usize = 24;
const LONGEST: usize = 80;
/// How many smaller sequences shrinking may try.
const SHRINK_BUDGET: usize = 2_000;

/// A drawn operation as plain numbers, so that an observation can carry
/// it: its kind, the kinds of a range's two ends, and two ranks.
type Code = (u8, u8, u32, u32);

/// The lists of ranks a drawn `extend`, `collect` or `From<Vec>` takes.
const LISTS: [&[u32]; 6] = [
    &[],
    &[3],
    &[4, 2, 6, 2, 4, 1],
    &[2, 7, 0, 7],
    &[5, 3, 5, 1, 3, 5],
    &[6, 6, 0, 2, 0],
];

/// The operation a code stands for. Inserts and removes are drawn most,
/// so that sets grow and shrink; shrinking goes towards `Insert(0)`.
fn op((kind, ends, first, second): Code) -> Op {
    let end = |kind: u8, rank: u32| match kind {
        0 => In(rank),
        1 => Ex(rank),
        _ => Open,
    };
    let list = LISTS[first as usize % LISTS.len()];
    match kind {
        1 | 20..=23 => Remove(first),
        2 => Get(first),
        3 => Contains(first),
        4 => Ends,
        5 => Range(end(ends / 3, first), end(ends % 3, second)),
        6 => Walk,
        7 => Extend(list),
        8 => ExtendRef(list),
        9 => Collect(list),
        10 => FromVec(list),
        11 => Default,
        12 => CloneThenInsert(first),
        13 => Debug,
        14 => ToNonEmpty,
        15 => ToSet,
        16 => NonEmptyNew(first),
        17 => NonEmptyInsert(first),
        18 => NonEmptyContains(first),
        19 => NonEmptyRead,
        _ => Insert(first),
    }
}

/// The drawn sequences, as trees that can shrink: the same in every run.
fn drawn() -> Vec<Box<dyn ValueTree<Value = Vec<Code>>>> {
    let ranks = 0..RANKS as u32;
    let strategy = vec((0u8..28, 0u8..9, ranks.clone(), ranks), 0..=LONGEST).boxed();
    let mut runner = shrink::runner(0xd1ff_5eed);
    (0..DRAWN).map(|_| shrink::draw(&strategy, &mut runner)).collect()
}

/// Every sequence: the fixed ones, then the drawn ones.
fn sequences() -> Vec<(String, Vec<Op>)> {
    let fixed = SEQUENCES
        .iter()
        .map(|(name, ops)| ((*name).to_owned(), ops.to_vec()));
    let drawn = drawn().into_iter().enumerate().map(|(number, tree)| {
        (
            format!("drawn {number}"),
            tree.current().into_iter().map(op).collect(),
        )
    });
    fixed.chain(drawn).collect()
}

/// What the reference solution answers at each step of `ops`: the result
/// and the set after it. The observing program, which does not link the
/// reference, asks the cases' own model instead, only to know when to
/// shrink.
fn expected(names: &[String], ops: &[Op]) -> Vec<(String, String)> {
    #[cfg(not(xsafe_judge))]
    use crate::support::diff::model::Model;
    #[cfg(xsafe_judge)]
    use crate::support::diff::reference::Model;

    let mut model = Model::new(names.to_vec());
    (0u32..)
        .zip(ops)
        .map(|(step, &op)| {
            let result = model.apply(step, op);
            (result, model.snapshot())
        })
        .collect()
}

/// Checks a trace of `ops` against the reference's: a failed assertion is
/// the verdict "failed".
fn check(name: &str, names: &[String], ops: &[Op], trace: &[String]) {
    use crate::support::diff::inverted;

    assert_eq!(
        trace.len(),
        ops.len(),
        "sequence \"{name}\": one record per step"
    );
    let expected = expected(names, ops);
    for (((step, &op), got), (result, snapshot)) in (0u32..).zip(ops).zip(trace).zip(expected) {
        if let Range(start, end) = op
            && inverted(start, end)
            && got.starts_with("a panic =>")
        {
            assert_eq!(
                got,
                &format!("a panic => {snapshot}"),
                "sequence \"{name}\" (keys by rank: {names:?}), step {step}, {op:?}: after the inverted range panicked, the set must be as it was"
            );
            continue;
        }
        assert_eq!(
            got,
            &format!("{result} => {snapshot}"),
            "sequence \"{name}\" (keys by rank: {names:?}), step {step}, {op:?}: the learner's set (left) differs from the reference's (right); a key is shown as name#tag, the tag being 100 x the step that made it + its place in that step's list"
        );
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each sequence, each step's "result => state".
    traces: Vec<Vec<String>>,
    /// For the first drawn sequence that went wrong, the smallest sequence
    /// shrinking found going wrong, and its trace (only for the message:
    /// the verdict comes from `traces`).
    smaller: Option<(usize, Vec<Code>, Vec<String>)>,
}

/// Each step's "result => state" of `ops` on the learner's set.
#[cfg(not(xsafe_judge))]
fn trace(names: &[String], ops: &[Op]) -> Vec<String> {
    use crate::support::diff::learner::Model;

    let mut model = Model::new(names.to_vec());
    (0u32..)
        .zip(ops)
        .map(|(step, &op)| {
            let result = model.apply(step, op);
            format!("{result} => {}", model.snapshot())
        })
        .collect()
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    crate::support::diff::quiet_hook();
    let names = names(seed, RANKS);
    let traces: Vec<Vec<String>> = sequences()
        .iter()
        .map(|(_, ops)| trace(&names, ops))
        .collect();
    // The judge's own check, run here against the cases' model only to
    // know when to shrink. Shrinking runs the set on sequences that may
    // make it panic, or that fail the check: both quietly.
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let mut smaller = None;
    for (number, tree) in drawn().into_iter().enumerate() {
        let wrong = |codes: &Vec<Code>, trace: &Vec<String>| {
            let ops: Vec<Op> = codes.iter().copied().map(op).collect();
            catch_unwind(AssertUnwindSafe(|| check("", &names, &ops, trace))).is_err()
        };
        if !wrong(&tree.current(), &traces[SEQUENCES.len() + number]) {
            continue;
        }
        let run = |codes: &Vec<Code>| {
            let ops: Vec<Op> = codes.iter().copied().map(op).collect();
            catch_unwind(AssertUnwindSafe(|| trace(&names, &ops)))
        };
        let codes = shrink::smallest_failing(tree, SHRINK_BUDGET, |codes| {
            run(codes).is_ok_and(|trace| wrong(codes, &trace))
        });
        smaller = run(&codes).ok().map(|trace| (number, codes, trace));
        break;
    }
    std::panic::set_hook(hook);
    Seen { traces, smaller }
}

pub fn judge(seed: Seed, seen: Seen) {
    use std::panic::resume_unwind;

    let sequences = sequences();
    assert_eq!(
        seen.traces.len(),
        sequences.len(),
        "one trace per sequence"
    );
    let names = names(seed, RANKS);
    let text = |payload: &(dyn std::any::Any + Send)| {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|text| (*text).to_owned()))
            .unwrap_or_default()
    };
    let mut first = None;
    let mut drawn_wrong = Vec::new();
    for (number, ((name, ops), trace)) in sequences.iter().zip(&seen.traces).enumerate() {
        if let Err(failure) = catch_unwind(AssertUnwindSafe(|| check(name, &names, ops, trace))) {
            first.get_or_insert(failure);
            drawn_wrong.extend(number.checked_sub(SEQUENCES.len()));
        }
    }
    let Some(failure) = first else {
        return;
    };
    // The verdict is the first failure. A smaller sequence that the check
    // also fails, if the observation has one for a drawn sequence that
    // went wrong, is told after it.
    if let Some((of, codes, trace)) = &seen.smaller
        && drawn_wrong.contains(of)
    {
        let ops: Vec<Op> = codes.iter().copied().map(op).collect();
        let label = format!("drawn {of}, shrunk");
        if let Err(small) = catch_unwind(AssertUnwindSafe(|| check(&label, &names, &ops, trace))) {
            let shown: Vec<String> = ops.iter().map(|op| format!("{op:?}")).collect();
            panic!(
                "{}\nThe smallest sequence shrinking found going wrong (from sequence \"drawn {of}\"), on a new set: [{}]\nThere: {}",
                text(&*failure),
                shown.join(", "),
                text(&*small)
            );
        }
    }
    resume_unwind(failure);
}
