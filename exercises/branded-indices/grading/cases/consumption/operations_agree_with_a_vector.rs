//! Proves consumption (and the checks it relies on): on sequences of
//! every operation of the API (index, push, get, get_mut, swap, a view's
//! get, gather, len, is_empty, position, comparing indices, Debug in both
//! modes), on vectors of `String` with spare capacity and values that
//! repeat, each result is the one a plain `Vec` gives. Swaps of an item
//! with itself, indices asked for at and past the end, and pushes into the
//! spare room happen in every run; the strings change with the seed. The
//! sequences are drawn with proptest from a fixed seed (0 to 120
//! operations each); when one goes wrong, the message shows the smallest
//! sequence that proptest's shrinking finds going wrong the same way.
use serde::{Deserialize, Serialize};
use xsafe_case::proptest::collection::vec;
use xsafe_case::proptest::prelude::*;
use xsafe_case::proptest::strategy::ValueTree;
use xsafe_case::{Seed, shrink};

const SEQUENCES: usize = 40;
/// The longest sequence (the shortest is empty).
const STEPS: usize = 120;
/// Room for more items than a vector holds at the start.
const SPARE: usize = 4;
/// How many smaller sequences shrinking may try.
const SHRINK_BUDGET: usize = 2_000;

/// One operation. `usize` fields are raw choices: a position asked for, or
/// which of the indices made so far (modulo their number) to use.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Op {
    Index(usize),
    Push(usize),
    Get(usize),
    GetMut(usize),
    Swap(usize, usize),
    SwapSelf(usize),
    ViewGet(usize),
    Gather(Vec<usize>),
    Len,
    Debug { alternate: bool },
    IndexDebug(usize, bool),
    Compare(usize, usize),
}

/// Which of the indices made so far to use (modulo their number): small
/// numbers, so that a shrunk sequence reads easily.
fn choice() -> impl Strategy<Value = usize> {
    0..64usize
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (0..12usize).prop_map(Op::Index),
        3 => (0..4usize).prop_map(Op::Push),
        3 => choice().prop_map(Op::Get),
        3 => choice().prop_map(Op::GetMut),
        3 => (choice(), choice()).prop_map(|(a, b)| Op::Swap(a, b)),
        3 => choice().prop_map(Op::SwapSelf),
        3 => choice().prop_map(Op::ViewGet),
        3 => vec(choice(), 0..5).prop_map(Op::Gather),
        3 => Just(Op::Len),
        1 => any::<bool>().prop_map(|alternate| Op::Debug { alternate }),
        2 => (choice(), any::<bool>()).prop_map(|(choice, alternate)| Op::IndexDebug(choice, alternate)),
        3 => (choice(), choice()).prop_map(|(a, b)| Op::Compare(a, b)),
    ]
}

/// A sequence: the starting length and the operations, as a tree that can
/// shrink. The same in every run: only the strings change with the seed.
fn sequences() -> Vec<(usize, Box<dyn ValueTree<Value = Vec<Op>>>)> {
    let strategy = vec(op(), 0..=STEPS).boxed();
    let mut runner = shrink::runner(0xb4a7_d1ce);
    (0..SEQUENCES)
        .map(|number| ([0, 1, 3, 6][number % 4], shrink::draw(&strategy, &mut runner)))
        .collect()
}

/// The values items take: four strings from the seed, so equal items repeat.
fn values(seed: Seed) -> Vec<String> {
    let mut rng = seed.rng();
    (0..4).map(|_| format!("v{:x}", rng.u32(..))).collect()
}

fn start_items(seed: Seed, number: usize, len: usize) -> Vec<String> {
    let values = values(seed);
    (0..len).map(|at| values[(at * 3 + number) % values.len()].clone()).collect()
}

/// What one operation returned, as data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Answer {
    /// An operation that needed an index when none was made yet.
    Skipped,
    /// `index`: the position of the index returned, if any.
    Index(Option<usize>),
    /// `push`: the position of the index returned.
    Pushed(usize),
    /// `get`, `get_mut` (before its change), a view's `get`.
    Item(String),
    /// `swap`: the two items afterwards.
    Swapped(String, String),
    Gathered(Vec<String>),
    Len(usize, bool),
    Text(String),
    Compared(bool, i8),
}

/// What one sequence gave: every answer, and the vector at the end.
type Run = (Vec<Answer>, Vec<String>);

/// The smallest sequence shrinking found going wrong, and what it gave.
#[derive(Debug, Serialize, Deserialize)]
pub struct Smaller {
    /// The sequence it was shrunk from.
    number: usize,
    ops: Vec<Op>,
    run: Run,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each sequence, what it gave.
    runs: Vec<Run>,
    /// For the first sequence that went wrong, a smaller one (only for the
    /// message: the verdict comes from `runs`).
    smaller: Option<Smaller>,
}

/// Runs one sequence on the learner's handle.
#[cfg(not(xsafe_judge))]
fn run(seed: Seed, number: usize, start: usize, ops: &[Op]) -> Run {
    use branded_indices::{Index, with};

    /// The index made `choice`-th (modulo how many were made), if any.
    fn pick<'id>(made: &[Index<'id>], choice: usize) -> Option<Index<'id>> {
        made.get(choice % made.len().max(1)).copied()
    }

    let values = values(seed);
    let mut items = Vec::with_capacity(start + SPARE);
    items.extend(start_items(seed, number, start));
    let answers = with(&mut items, |mut items| {
        let mut made: Vec<Index<'_>> = Vec::new();
        ops.iter()
            .map(|op| match op {
                Op::Index(position) => {
                    let index = items.index(*position);
                    made.extend(index);
                    Answer::Index(index.map(|index| index.position()))
                }
                Op::Push(value) => {
                    let index = items.push(values[*value].clone());
                    made.push(index);
                    Answer::Pushed(index.position())
                }
                Op::Get(choice) => match pick(&made, *choice) {
                    Some(index) => Answer::Item(items.get(index).clone()),
                    None => Answer::Skipped,
                },
                Op::GetMut(choice) => match pick(&made, *choice) {
                    Some(index) => {
                        let item = items.get_mut(index);
                        let before = item.clone();
                        item.push('!');
                        Answer::Item(before)
                    }
                    None => Answer::Skipped,
                },
                Op::Swap(a, b) => match (pick(&made, *a), pick(&made, *b)) {
                    (Some(a), Some(b)) => {
                        items.swap(a, b);
                        Answer::Swapped(items.get(a).clone(), items.get(b).clone())
                    }
                    _ => Answer::Skipped,
                },
                Op::SwapSelf(choice) => match pick(&made, *choice) {
                    Some(index) => {
                        items.swap(index, index);
                        Answer::Swapped(items.get(index).clone(), items.get(index).clone())
                    }
                    None => Answer::Skipped,
                },
                Op::ViewGet(choice) => match pick(&made, *choice) {
                    Some(index) => Answer::Item(items.view().get(index).clone()),
                    None => Answer::Skipped,
                },
                Op::Gather(choices) => {
                    let order: Vec<Index<'_>> =
                        choices.iter().filter_map(|&choice| pick(&made, choice)).collect();
                    Answer::Gathered(branded_indices::gather(&items, &order))
                }
                Op::Len => Answer::Len(items.len(), items.is_empty()),
                Op::Debug { alternate: false } => Answer::Text(format!("{items:?}")),
                Op::Debug { alternate: true } => Answer::Text(format!("{items:#?}")),
                Op::IndexDebug(choice, alternate) => match pick(&made, *choice) {
                    Some(index) if *alternate => Answer::Text(format!("{index:#?}")),
                    Some(index) => Answer::Text(format!("{index:?}")),
                    None => Answer::Skipped,
                },
                Op::Compare(a, b) => match (pick(&made, *a), pick(&made, *b)) {
                    (Some(a), Some(b)) => Answer::Compared(a == b, a.cmp(&b) as i8),
                    _ => Answer::Skipped,
                },
            })
            .collect()
    });
    (answers, items)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    let mut runs = Vec::new();
    let mut smaller = None;
    for (number, (start, tree)) in sequences().into_iter().enumerate() {
        let ops = tree.current();
        let got = run(seed, number, start, &ops);
        if smaller.is_none() && got != expected(seed, number, start, &ops) {
            // Shrinking runs the handle on sequences that may make it
            // panic: those count as not failing the same way, quietly.
            let hook = std::panic::take_hook();
            std::panic::set_hook(Box::new(|_| {}));
            let wrong = |ops: &Vec<Op>| {
                catch_unwind(AssertUnwindSafe(|| run(seed, number, start, ops)))
                    .is_ok_and(|got| got != expected(seed, number, start, ops))
            };
            let ops = shrink::smallest_failing(tree, SHRINK_BUDGET, wrong);
            let got = catch_unwind(AssertUnwindSafe(|| run(seed, number, start, &ops)));
            std::panic::set_hook(hook);
            smaller = got.ok().map(|run| Smaller { number, ops, run });
        }
        runs.push(got);
    }
    Seen { runs, smaller }
}

/// What a plain `Vec` answers to the same sequence: the model.
fn expected(seed: Seed, number: usize, start: usize, ops: &[Op]) -> (Vec<Answer>, Vec<String>) {
    let values = values(seed);
    let mut items = start_items(seed, number, start);
    let mut made: Vec<usize> = Vec::new();
    let pick = |made: &[usize], choice: usize| made.get(choice % made.len().max(1)).copied();
    let answers = ops
        .iter()
        .map(|op| match op {
            Op::Index(position) => {
                let index = (*position < items.len()).then_some(*position);
                made.extend(index);
                Answer::Index(index)
            }
            Op::Push(value) => {
                items.push(values[*value].clone());
                made.push(items.len() - 1);
                Answer::Pushed(items.len() - 1)
            }
            Op::Get(choice) | Op::ViewGet(choice) => match pick(&made, *choice) {
                Some(at) => Answer::Item(items[at].clone()),
                None => Answer::Skipped,
            },
            Op::GetMut(choice) => match pick(&made, *choice) {
                Some(at) => {
                    let before = items[at].clone();
                    items[at].push('!');
                    Answer::Item(before)
                }
                None => Answer::Skipped,
            },
            Op::Swap(a, b) => match (pick(&made, *a), pick(&made, *b)) {
                (Some(a), Some(b)) => {
                    items.swap(a, b);
                    Answer::Swapped(items[a].clone(), items[b].clone())
                }
                _ => Answer::Skipped,
            },
            Op::SwapSelf(choice) => match pick(&made, *choice) {
                Some(at) => Answer::Swapped(items[at].clone(), items[at].clone()),
                None => Answer::Skipped,
            },
            Op::Gather(choices) => Answer::Gathered(
                choices
                    .iter()
                    .filter_map(|&choice| pick(&made, choice))
                    .map(|at| items[at].clone())
                    .collect(),
            ),
            Op::Len => Answer::Len(items.len(), items.is_empty()),
            Op::Debug { alternate: false } => Answer::Text(format!("Branded({items:?})")),
            Op::Debug { alternate: true } => Answer::Text(format!("{:#?}", Tuple("Branded", &items))),
            Op::IndexDebug(choice, _) => match pick(&made, *choice) {
                Some(at) => Answer::Text(format!("Index({at})")),
                None => Answer::Skipped,
            },
            Op::Compare(a, b) => match (pick(&made, *a), pick(&made, *b)) {
                (Some(a), Some(b)) => Answer::Compared(a == b, a.cmp(&b) as i8),
                _ => Answer::Skipped,
            },
        })
        .collect();
    (answers, items)
}

/// Formats as `Name(field)`, like a derived `Debug` of a tuple struct.
struct Tuple<'a>(&'static str, &'a Vec<String>);

impl std::fmt::Debug for Tuple<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple(self.0).field(self.1).finish()
    }
}

/// The message's account of the smaller sequence, if the observation has
/// one for sequence `number` and it goes wrong against the model too.
fn smaller_story(seed: Seed, number: usize, start: usize, smaller: Option<&Smaller>) -> String {
    let Some(smaller) = smaller.filter(|smaller| smaller.number == number) else {
        return String::new();
    };
    let (answers, end) = &smaller.run;
    let (wanted, wanted_end) = expected(seed, number, start, &smaller.ops);
    let step = answers.iter().zip(&wanted).position(|(answer, wanted)| answer != wanted);
    let what = match step {
        Some(step) => format!(
            "operation {step}, {:?}, answers {:?} where a plain Vec answers {:?}",
            smaller.ops[step], answers[step], wanted[step]
        ),
        None if answers.len() != wanted.len() => format!("it gives {} answers for {} operations", answers.len(), wanted.len()),
        None if *end != wanted_end => format!("the vector ends as {end:?} where a plain Vec holds {wanted_end:?}"),
        // Not wrong against the model: not a story to tell.
        None => return String::new(),
    };
    format!(
        "\nThe smallest sequence shrinking found going wrong the same way, on the same {start} strings: {:?}\nThere, {what}.",
        smaller.ops
    )
}

pub fn judge(seed: Seed, seen: Seen) {
    let sequences = sequences();
    assert_eq!(seen.runs.len(), sequences.len(), "one run per sequence");
    for (number, ((start, tree), (answers, end))) in sequences.iter().zip(&seen.runs).enumerate() {
        let ops = tree.current();
        let (expected_answers, expected_end) = expected(seed, number, *start, &ops);
        let story = || smaller_story(seed, number, *start, seen.smaller.as_ref());
        assert_eq!(answers.len(), ops.len(), "sequence {number}: one answer per operation");
        for (step, ((op, answer), wanted)) in ops.iter().zip(answers).zip(&expected_answers).enumerate() {
            assert!(
                answer == wanted,
                "sequence {number} (a vector of {start} strings with room for {SPARE} more, {} operations), operation {step}, {op:?}: the answer {answer:?} differs from a plain Vec's, {wanted:?}{}",
                ops.len(),
                story()
            );
        }
        assert!(
            end == &expected_end,
            "sequence {number}: after {} operations the vector holds {end:?}, where a plain Vec would hold {expected_end:?}{}",
            ops.len(),
            story()
        );
    }
}
