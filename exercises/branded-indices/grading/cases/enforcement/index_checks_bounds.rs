//! Proves enforcement: `index` gives an index exactly for the positions
//! below the length (an empty vector has none; the length itself, one past
//! the end, is refused), whether or not the vector has spare capacity
//! beyond its length (a check against the capacity is wrong), and `push`
//! returns the index of the new item, which `index` then accepts too. Also
//! past 2^32 items (a vector of `()`, which takes no memory): a position
//! kept in a `u32` would come back as another position.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Room for more items than a vector holds, in the vectors of `spare`.
const SPARE: usize = 8;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For each vector: its length, and each position asked for with the
    /// position of the index `index` returned, if any.
    asked: Vec<(usize, Vec<(usize, Option<usize>)>)>,
    /// The same, for vectors with room for more items than they hold.
    spare: Vec<(usize, Vec<(usize, Option<usize>)>)>,
    /// For each push: the length before, the position of the index
    /// returned, and whether `index` accepts that position afterwards.
    pushed: Vec<(usize, usize, bool)>,
    /// For a vector of [`HUGE`] `()`: each of [`HUGE_POSITIONS`] with the
    /// position of the index `index` returned, if any.
    huge: Vec<(usize, Option<usize>)>,
}

/// A length past `u32::MAX`.
const HUGE: usize = (1 << 32) + 3;

/// Positions around 2^32 and past the huge vector's end.
const HUGE_POSITIONS: [usize; 7] = [
    (1 << 32) - 1,
    1 << 32,
    (1 << 32) + 1,
    (1 << 32) + 2,
    HUGE,
    HUGE + 1,
    1 << 33,
];

fn lengths(seed: Seed) -> Vec<usize> {
    let mut rng = seed.rng();
    vec![0, 1, 2, rng.usize(3..40), rng.usize(40..300)]
}

fn positions(seed: Seed, len: usize) -> Vec<usize> {
    let mut rng = Seed(seed.0 ^ len as u64).rng();
    let mut positions: Vec<usize> = (0..len.min(8)).collect();
    positions.extend(len.saturating_sub(3)..len + 3);
    positions.push(rng.usize(len..len + 1000));
    positions.push(usize::MAX);
    positions
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use branded_indices::with;

    let ask = |spare: usize| -> Vec<(usize, Vec<(usize, Option<usize>)>)> {
        lengths(seed)
            .into_iter()
            .map(|len| {
                let mut items = Vec::with_capacity(len + spare);
                items.extend(crate::support::items(seed, len));
                let answers = with(&mut items, |items| {
                    positions(seed, len)
                        .into_iter()
                        .map(|position| (position, items.index(position).map(|index| index.position())))
                        .collect()
                });
                (len, answers)
            })
            .collect()
    };
    let asked = ask(0);
    let spare = ask(SPARE);
    let mut items = Vec::with_capacity(SPARE);
    let pushed = with(&mut items, |mut items| {
        (0..5u32)
            .map(|value| {
                let before = items.len();
                let index = items.push(value);
                (before, index.position(), items.index(before).is_some())
            })
            .collect()
    });
    // A vector of zero-sized items holds any length without memory: its
    // capacity is `usize::MAX`, so setting the length is sound.
    let mut nothing: Vec<()> = Vec::new();
    // SAFETY: `()` needs no initialisation and no memory, and
    // `HUGE <= nothing.capacity()`.
    unsafe { nothing.set_len(HUGE) };
    let huge = with(&mut nothing, |items| {
        HUGE_POSITIONS
            .iter()
            .map(|&position| (position, items.index(position).map(|index| index.position())))
            .collect()
    });
    Seen { asked, spare, pushed, huge }
}

pub fn judge(seed: Seed, seen: Seen) {
    let lengths = lengths(seed);
    for (asked, room) in [(&seen.asked, ""), (&seen.spare, " and room for 8 more")] {
        assert_eq!(asked.len(), lengths.len());
        for ((len, answers), expected_len) in asked.iter().zip(&lengths) {
            assert_eq!(len, expected_len);
            assert_eq!(answers.len(), positions(seed, *len).len());
            for &(position, answer) in answers {
                if position < *len {
                    assert_eq!(
                        answer,
                        Some(position),
                        "in a vector of {len} items{room}, index({position}) must give the index of position {position}"
                    );
                } else {
                    assert_eq!(
                        answer, None,
                        "in a vector of {len} items{room}, index({position}) must be refused: the position is out of bounds"
                    );
                }
            }
        }
    }
    assert_eq!(seen.huge.len(), HUGE_POSITIONS.len());
    for &(position, answer) in &seen.huge {
        let expected = (position < HUGE).then_some(position);
        assert_eq!(
            answer, expected,
            "in a vector of {HUGE} items (2^32 + 3), index({position}) must give {expected:?}: a position must be kept whole, never in 32 bits"
        );
    }
    for (count, &(before, position, accepted)) in seen.pushed.iter().enumerate() {
        assert_eq!(before, count, "each push must add one item");
        assert_eq!(position, before, "push must return the index of the new item, at the old length");
        assert!(accepted, "after a push, index(old length) must be accepted");
    }
}
