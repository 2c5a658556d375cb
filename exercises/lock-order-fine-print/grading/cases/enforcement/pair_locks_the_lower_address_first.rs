//! Proves enforcement: `lock_both` takes the mutex at the lower address
//! first, whatever order it is given them in, so two threads locking one
//! pair never hold one each. With the lower mutex held elsewhere, a thread
//! calling `lock_both(higher, lower)`, or `lock_both(lower, higher)`, must
//! wait for it holding nothing: a third thread can still lock the higher
//! one. The case reads from `/proc` when the pair thread waits, so the
//! verdict is the same in every run (see `support::pair_probe`).
use crate::support::{PairOrder, judge_pair_probe};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    orders: Vec<PairOrder>,
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    Seen {
        orders: crate::support::pair_probe(seed),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    if let Err(why) = judge_pair_probe(seed, &seen.orders) {
        panic!("{why}");
    }
}
