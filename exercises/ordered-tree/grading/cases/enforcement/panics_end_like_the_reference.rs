//! Proves enforcement: when a callback of the learner's caller panics part
//! way through an operation (a key's `cmp` on its N-th call, for every N up
//! to the number of comparisons the sequence makes; a key's `clone` on its
//! N-th call, likewise; an iterator given to `extend` or `collect` after k
//! keys) and the caller catches the panic, the set it finds is one the
//! reference solution can be in after the same panic: as it was before, or
//! with the one key inserted or removed, or, for `extend`, with the keys
//! before the panicking one added. No key is lost, none is counted twice,
//! `len` counts the nodes of a tree that is still in order, and every later
//! operation answers as the reference does from that state.
use crate::support::diff::Op;
use crate::support::diff::names;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

use crate::support::diff::End::{Ex, In};
use Op::*;

const RANKS: usize = 8;

/// The sequences: their names (for the judge's messages) and operations.
const SEQUENCES: [(&str, &[Op]); 2] = [
    (
        "OrderedSet",
        &[
            Insert(4),
            Insert(2),
            Insert(6),
            Insert(1),
            Insert(2),
            Remove(4),
            Remove(3),
            Extend(&[5, 3, 5, 0]),
            ExtendRef(&[7, 3, 6]),
            Get(5),
            Contains(0),
            Range(In(1), Ex(6)),
            CloneThenInsert(4),
            ExtendPanicking(&[6, 0, 6, 7], 3),
            FromVec(&[3, 1, 3]),
            Collect(&[2, 2, 5]),
            CollectPanicking(&[1, 2, 3], 2),
            Insert(0),
            Remove(2),
            Walk,
        ],
    ),
    (
        "NonEmptySet",
        &[
            NonEmptyNew(3),
            NonEmptyInsert(1),
            NonEmptyInsert(5),
            NonEmptyInsert(3),
            NonEmptyInsert(0),
            NonEmptyInsert(4),
            NonEmptyContains(5),
            NonEmptyRead,
            ToSet,
            Remove(1),
            Walk,
        ],
    ),
];

/// One step of one run: what it returned (or that it panicked), and the
/// state after it when it panicked.
#[derive(Debug, Serialize, Deserialize)]
pub struct Step {
    panicked: bool,
    /// Whether the panic was the case's own (a key's or the iterator's),
    /// rather than one of the code under test.
    ours: bool,
    result: String,
    state_after_panic: Option<String>,
}

/// One run of a sequence with one fuse (or none).
#[derive(Debug, Serialize, Deserialize)]
pub struct Run {
    fuse: String,
    steps: Vec<Step>,
    end: String,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each sequence, its runs: first with no fuse, then one per fuse.
    runs: Vec<Vec<Run>>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::diff::learner::Model;
    use crate::support::diff::{Fuse, arm, calls, disarm, fired};
    use std::panic::{AssertUnwindSafe, catch_unwind};

    crate::support::diff::quiet_hook();
    let run = |ops: &[Op], fuse: Option<Fuse>| {
        let mut model = Model::new(names(seed, RANKS));
        disarm();
        if let Some(fuse) = fuse {
            arm(fuse);
        }
        let steps = (0u32..)
            .zip(ops)
            .map(|(step, &op)| {
                fired();
                match catch_unwind(AssertUnwindSafe(|| model.apply(step, op))) {
                    Ok(result) => Step {
                        panicked: false,
                        ours: fired(),
                        result,
                        state_after_panic: None,
                    },
                    Err(_) => Step {
                        panicked: true,
                        ours: fired(),
                        result: String::new(),
                        state_after_panic: Some(model.snapshot()),
                    },
                }
            })
            .collect();
        disarm();
        Run {
            fuse: fuse.map_or_else(|| "no key panics".to_string(), |fuse| fuse.to_string()),
            steps,
            end: model.snapshot(),
        }
    };
    let runs = SEQUENCES
        .iter()
        .map(|(_, ops)| {
            let before = calls();
            let mut runs = vec![run(ops, None)];
            let after = calls();
            let (compared, cloned) = (after.0 - before.0, after.1 - before.1);
            runs.extend((1..=compared).map(|n| run(ops, Some(Fuse::Compare(n)))));
            runs.extend((1..=cloned).map(|n| run(ops, Some(Fuse::Clone(n)))));
            runs
        })
        .collect();
    Seen { runs }
}

#[cfg(xsafe_judge)]
pub fn judge(seed: Seed, seen: Seen) {
    use crate::support::diff::reference::Model;

    assert_eq!(
        seen.runs.len(),
        SEQUENCES.len(),
        "one list of runs per sequence"
    );
    let names = names(seed, RANKS);
    for ((name, ops), runs) in SEQUENCES.iter().zip(&seen.runs) {
        assert!(!runs.is_empty(), "sequence \"{name}\" was not run");
        for run in runs {
            let fuse = &run.fuse;
            assert_eq!(
                run.steps.len(),
                ops.len(),
                "sequence \"{name}\", {fuse}: one record per step"
            );
            let mut model = Model::new(names.clone());
            for ((step, &op), got) in (0u32..).zip(ops.iter()).zip(&run.steps) {
                let place = format!(
                    "sequence \"{name}\" (keys by rank: {names:?}), when {fuse}: step {step}, {op:?}"
                );
                let must_panic = matches!(op, ExtendPanicking(..) | CollectPanicking(..));
                if got.panicked {
                    assert!(
                        got.ours,
                        "{place} panicked, but neither a key nor the iterator the case gave it did: the panic came from the code under test"
                    );
                    let state = got.state_after_panic.as_deref().unwrap_or_default();
                    let allowed = model.after_a_panic(step, op);
                    let mut shown: Vec<String> = Vec::new();
                    for allowed in &allowed {
                        let snapshot = allowed.snapshot();
                        if !shown.contains(&snapshot) {
                            shown.push(snapshot);
                        }
                    }
                    let Some(found) = allowed.into_iter().find(|model| model.snapshot() == state)
                    else {
                        panic!(
                            "{place} panicked and left the set as\n  {state}\nbut after that panic the set must be one of\n  {}",
                            shown.join("\n  ")
                        );
                    };
                    model = found;
                } else {
                    assert!(
                        !must_panic,
                        "{place}: the iterator given to it panicked, but the panic did not reach the caller"
                    );
                    let result = model.apply(step, op);
                    assert_eq!(
                        got.result, result,
                        "{place}: the learner's result (left) differs from the reference's (right) from the same state"
                    );
                }
            }
            assert_eq!(
                run.end,
                model.snapshot(),
                "sequence \"{name}\" (keys by rank: {names:?}), when {fuse}: at the end, the learner's set (left) differs from the reference's (right) after the same steps"
            );
        }
    }
}
