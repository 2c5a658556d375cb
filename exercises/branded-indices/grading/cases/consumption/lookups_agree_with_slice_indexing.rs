//! Proves consumption: `get`, `View::get`, `get_mut` and `swap` through
//! branded indices do what slice indexing does on the same vector, on seeded
//! items: every item read, items changed in place, swaps (an item with
//! itself included), and the vector the caller gets back.
use crate::support::assert_same;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

const LEN: usize = 200;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `get` at every position, in order.
    read: Vec<u32>,
    /// `view().get` at every position, in reverse order.
    viewed: Vec<u32>,
    /// The vector after the changes, as the caller sees it.
    after: Vec<u32>,
}

/// The changes: `(position, added)` for `get_mut`, then the swaps.
fn changes(seed: Seed) -> (Vec<(usize, u32)>, Vec<(usize, usize)>) {
    let mut rng = Seed(seed.0 ^ 0xc4a6).rng();
    let adds = (0..50).map(|_| (rng.usize(..LEN), rng.u32(1..1000))).collect();
    let mut swaps: Vec<(usize, usize)> = (0..50).map(|_| (rng.usize(..LEN), rng.usize(..LEN))).collect();
    swaps.push((0, LEN - 1));
    let same = rng.usize(..LEN);
    swaps.push((same, same));
    (adds, swaps)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use branded_indices::with;

    let mut items = crate::support::items(seed, LEN);
    let (adds, swaps) = changes(seed);
    let (read, viewed) = with(&mut items, |mut items| {
        let read = (0..LEN).map(|position| *items.get(items.index(position).unwrap())).collect();
        let view = items.view();
        let viewed = (0..LEN).rev().map(|position| *view.get(items.index(position).unwrap())).collect();
        for (position, added) in adds {
            let index = items.index(position).unwrap();
            let item = items.get_mut(index);
            *item = item.wrapping_add(added);
        }
        for (a, b) in swaps {
            let (a, b) = (items.index(a).unwrap(), items.index(b).unwrap());
            items.swap(a, b);
        }
        (read, viewed)
    });
    Seen { read, viewed, after: items }
}

pub fn judge(seed: Seed, seen: Seen) {
    let mut items = crate::support::items(seed, LEN);
    assert_same(&seen.read, &items, "get(index(i)) must read the item at position i");
    let reversed: Vec<u32> = items.iter().rev().copied().collect();
    assert_same(&seen.viewed, &reversed, "view().get(index(i)) must read the item at position i");
    let (adds, swaps) = changes(seed);
    for (position, added) in adds {
        items[position] = items[position].wrapping_add(added);
    }
    for (a, b) in swaps {
        items.swap(a, b);
    }
    assert_same(
        &seen.after,
        &items,
        "after the same get_mut and swap calls, the vector must equal the one changed by slice indexing",
    );
}
