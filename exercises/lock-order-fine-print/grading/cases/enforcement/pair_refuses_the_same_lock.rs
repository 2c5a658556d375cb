//! Proves enforcement: `lock_both` with the same mutex twice is refused,
//! with `SameLock`, instead of waiting for itself on the second lock, and
//! the mutex is left unlocked: the same thread locks it next. A thread that
//! waits is seen sleeping on the mutex (in `/proc`), so a `lock_both` that
//! locks twice fails in every run. The mutex's value comes from the seed.
use crate::support::{Ended, values};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Whether `lock_both(&m, &m)` returned `Err(SameLock)`, and the value
    /// a lock of `m` then read.
    refused: Ended<(bool, u64)>,
}

fn balance(seed: Seed) -> u64 {
    values(seed, 0x5a3e, 1, 1 << 40)[0]
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{PROMPT, memory_of, watch};
    use lock_order_fine_print::{
        Lock, LockBoth, OrderedMutex, SameLock, impl_lock_after, with_token,
    };
    use std::sync::Arc;

    enum Account {}
    impl_lock_after!(Unlocked => Account);

    let alice = Arc::new(OrderedMutex::<Account, u64>::new(balance(seed)));
    let memory = memory_of(&*alice);
    let mut attempt = watch(move || {
        with_token(|token| {
            let refused = matches!(alice.lock_both(&alice, token), Err(SameLock));
            let (balance, _) = alice.lock(token);
            (refused, *balance)
        })
    });
    Seen {
        refused: attempt.ended_or_sleeping_on(&memory, PROMPT),
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    match seen.refused {
        Ended::Returned(refused) => assert_eq!(
            refused,
            (true, balance(seed)),
            "lock_both(&m, &m) must return Err(SameLock) and leave m unlocked, holding its value"
        ),
        Ended::Waiting => panic!(
            "lock_both(&m, &m), or the lock after it, waited for the thread itself: compare the two addresses before locking, and refuse the same mutex with SameLock"
        ),
        Ended::Panicked(message) => panic!("lock_both(&m, &m) panicked: {message}"),
    }
}
