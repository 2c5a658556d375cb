//! Proves enforcement: `lock_both` locks both mutexes and returns their
//! guards in the order the caller named them, whichever it locked first (a
//! write through the first guard changes the first mutex named), and a
//! token at their level that locks the levels after it. The values and
//! the amounts written come from the seed.
use crate::support::values;
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// For `lock_both(0, 1)` then `lock_both(1, 0)`: the two values read.
    read: Vec<(u64, u64)>,
    /// The two mutexes' values at the end, and the tally's.
    last: (u64, u64, u64),
}

fn inputs(seed: Seed) -> Vec<u64> {
    values(seed, 0xa3ed, 7, 1 << 30)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order_fine_print::{Lock, LockBoth, OrderedMutex, impl_lock_after, with_token};

    enum Account {}
    enum Tally {}
    impl_lock_after!(Unlocked => Account);
    impl_lock_after!(Account => Tally);

    let v = inputs(seed);
    let accounts = [
        OrderedMutex::<Account, u64>::new(v[0]),
        OrderedMutex::<Account, u64>::new(v[1]),
    ];
    let tally = OrderedMutex::<Tally, u64>::new(v[2]);
    let read = with_token(|token| {
        [(0, 1, v[3], v[4]), (1, 0, v[5], v[6])]
            .into_iter()
            .map(|(first, second, to_first, to_second)| {
                let (mut a, mut b, mut at_account) = accounts[first]
                    .lock_both(&accounts[second], token)
                    .expect("two different accounts");
                let read = (*a, *b);
                *a += to_first;
                *b += to_second;
                let (mut count, _) = tally.lock(&mut at_account);
                *count += 1;
                read
            })
            .collect()
    });
    let [zero, one] = accounts;
    Seen {
        read,
        last: (zero.into_inner(), one.into_inner(), tally.into_inner()),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let v = inputs(seed);
    let after_first = (v[0] + v[3], v[1] + v[4]);
    assert_eq!(
        seen.read,
        [(v[0], v[1]), (after_first.1, after_first.0)],
        "lock_both must return the guards in the order named: self's first, then other's"
    );
    assert_eq!(
        seen.last,
        (after_first.0 + v[6], after_first.1 + v[5], v[2] + 2),
        "writes through the guards must reach the mutexes named, and the token lock_both returns must lock a later level"
    );
}
