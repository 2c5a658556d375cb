//! Proves consumption: `gather` returns the items at the indices given, in
//! their order: a seeded permutation (each item once), a selection with
//! repeats, and no indices at all.
use crate::support::assert_same;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const LEN: usize = 300;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    permuted: Vec<u32>,
    selected: Vec<u32>,
    none: Vec<u32>,
}

fn selection(seed: Seed) -> Vec<usize> {
    let mut rng = Seed(seed.0 ^ 0x5e1e).rng();
    let mut positions: Vec<usize> = (0..40).map(|_| rng.usize(..LEN)).collect();
    positions.extend([LEN - 1, LEN - 1, 0]);
    positions
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use branded_indices::{Branded, Index, gather, with};

    fn indices<'id>(items: &Branded<'id, u32>, positions: &[usize]) -> Vec<Index<'id>> {
        positions.iter().map(|&position| items.index(position).unwrap()).collect()
    }

    let mut items = crate::support::items(seed, LEN);
    with(&mut items, |items| {
        let order = indices(&items, &crate::support::permutation(seed, LEN));
        let chosen = indices(&items, &selection(seed));
        Seen {
            permuted: gather(&items, &order),
            selected: gather(&items, &chosen),
            none: gather(&items, &[]),
        }
    })
}

pub fn judge(seed: Seed, seen: Seen) {
    let items = crate::support::items(seed, LEN);
    let expected: Vec<u32> = crate::support::permutation(seed, LEN).iter().map(|&p| items[p]).collect();
    assert_same(&seen.permuted, &expected, "gather with a permutation must return the items in the permutation's order");
    let expected: Vec<u32> = selection(seed).iter().map(|&p| items[p]).collect();
    assert_same(&seen.selected, &expected, "gather must return the item at each index given, repeats included");
    assert!(seen.none.is_empty(), "gather with no indices must return nothing");
}
