//! Proves consumption (and the checks it relies on): on fixed sequences of
//! every operation of the API (index, push, get, get_mut, swap, a view's
//! get, gather, len, is_empty, position, comparing indices, Debug in both
//! modes), on vectors of `String` with spare capacity and values that
//! repeat, each result is the one a plain `Vec` gives. Swaps of an item
//! with itself, indices asked for at and past the end, and pushes into the
//! spare room happen in every run; the strings change with the seed.
use serde::{Deserialize, Serialize};
use xsafe_case::{Rng, Seed};

const SEQUENCES: usize = 40;
const STEPS: usize = 60;
/// Room for more items than a vector holds at the start.
const SPARE: usize = 4;

/// One operation. `usize` fields are raw choices: a position asked for, or
/// which of the indices made so far (modulo their number) to use.
#[derive(Debug, Clone)]
enum Op {
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

/// A sequence: the starting length and the operations (fixed shapes).
fn sequences() -> Vec<(usize, Vec<Op>)> {
    let mut rng = Rng::with_seed(0xb4a7_d1ce);
    (0..SEQUENCES)
        .map(|number| {
            let start = [0, 1, 3, 6][number % 4];
            let ops = (0..STEPS).map(|_| op(&mut rng)).collect();
            (start, ops)
        })
        .collect()
}

fn op(rng: &mut Rng) -> Op {
    match rng.u8(0..12) {
        0 | 1 => Op::Index(rng.usize(0..12)),
        2 => Op::Push(rng.usize(0..4)),
        3 => Op::Get(rng.usize(..)),
        4 => Op::GetMut(rng.usize(..)),
        5 => Op::Swap(rng.usize(..), rng.usize(..)),
        6 => Op::SwapSelf(rng.usize(..)),
        7 => Op::ViewGet(rng.usize(..)),
        8 => Op::Gather((0..rng.usize(0..5)).map(|_| rng.usize(..)).collect()),
        9 => Op::Len,
        10 => match rng.u8(0..3) {
            0 => Op::Debug { alternate: rng.bool() },
            _ => Op::IndexDebug(rng.usize(..), rng.bool()),
        },
        _ => Op::Compare(rng.usize(..), rng.usize(..)),
    }
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

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each sequence: every answer, and the vector at the end.
    runs: Vec<(Vec<Answer>, Vec<String>)>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use branded_indices::{Index, with};

    /// The index made `choice`-th (modulo how many were made), if any.
    fn pick<'id>(made: &[Index<'id>], choice: usize) -> Option<Index<'id>> {
        made.get(choice % made.len().max(1)).copied()
    }

    let values = values(seed);
    let runs = sequences()
        .into_iter()
        .enumerate()
        .map(|(number, (start, ops))| {
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
        })
        .collect();
    Seen { runs }
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

pub fn judge(seed: Seed, seen: Seen) {
    let sequences = sequences();
    assert_eq!(seen.runs.len(), sequences.len(), "one run per sequence");
    for (number, ((start, ops), (answers, end))) in sequences.iter().zip(&seen.runs).enumerate() {
        let (expected_answers, expected_end) = expected(seed, number, *start, ops);
        assert_eq!(answers.len(), ops.len(), "sequence {number}: one answer per operation");
        for (step, ((op, answer), wanted)) in ops.iter().zip(answers).zip(&expected_answers).enumerate() {
            assert_eq!(
                answer, wanted,
                "sequence {number} (a vector of {start} strings with room for {SPARE} more), operation {step}, {op:?}: the answer differs from a plain Vec's"
            );
        }
        assert_eq!(
            end, &expected_end,
            "sequence {number}: after {} operations the vector does not hold what a plain Vec would",
            ops.len()
        );
    }
}
