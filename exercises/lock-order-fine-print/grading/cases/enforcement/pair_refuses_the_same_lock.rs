//! Proves enforcement: `lock_both` with the same mutex twice is refused,
//! with `SameLock`, instead of waiting for itself on the second lock, and
//! the mutex is left unlocked: the same thread locks it next. The refusal
//! comes before any lock: while another thread holds the mutex,
//! `lock_both(&m, &m)` is refused at once, not after that thread lets go.
//! A thread that waits is seen waiting on the mutex (see `support`), so a
//! `lock_both` that locks twice, or locks once before it refuses, fails in
//! every run. The mutex's value comes from the seed.
use crate::support::{Ended, values};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Whether `lock_both(&m, &m)` returned `Err(SameLock)`, and the value
    /// a lock of `m` then read.
    refused: Ended<(bool, u64)>,
    /// Whether `lock_both(&m, &m)` returned `Err(SameLock)` while another
    /// thread held `m`.
    refused_while_held: Ended<bool>,
}

fn balance(seed: Seed) -> u64 {
    values(seed, 0x5a3e, 1, 1 << 40)[0]
}

/// Every access to the locks' memory traps meanwhile, so a thread that
/// waits for one is seen waiting (see `support`).
#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    crate::support::trapped(|| observe_trapped(seed))
}

#[cfg(not(xsafe_judge))]
fn observe_trapped(seed: Seed) -> Seen {
    use crate::support::{PROMPT, in_arena, memory_of, watch};
    use lock_order_fine_print::{
        Lock, LockBoth, OrderedMutex, SameLock, impl_lock_after, with_token,
    };
    use std::sync::Arc;

    enum Account {}
    impl_lock_after!(Unlocked => Account);

    let alice = in_arena(OrderedMutex::<Account, u64>::new(balance(seed)));
    let memory = memory_of(&*alice);
    let mut attempt = watch(move || {
        with_token(|token| {
            let refused = matches!(alice.lock_both(&alice, token), Err(SameLock));
            let (balance, _) = alice.lock(token);
            (refused, *balance)
        })
    });
    let refused = attempt.ended_or_sleeping_on(&memory, PROMPT);

    // The same while another thread holds the mutex, until the case lets
    // it go.
    let held = in_arena(OrderedMutex::<Account, u64>::new(balance(seed)));
    let memory = memory_of(&*held);
    let (locked, is_locked) = std::sync::mpsc::channel();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let holder = {
        let held = Arc::clone(&held);
        std::thread::spawn(move || {
            with_token(|token| {
                let (_guard, _) = held.lock(token);
                let _ = locked.send(());
                let _ = released.recv();
            });
        })
    };
    let refused_while_held = if is_locked.recv().is_ok() {
        let mut attempt = watch(move || {
            with_token(|token| matches!(held.lock_both(&held, token), Err(SameLock)))
        });
        attempt.ended_or_sleeping_on(&memory, PROMPT)
    } else {
        Ended::Panicked("a lock of the mutex, on a thread of the case's own, panicked".to_owned())
    };
    let _ = release.send(());
    let _ = holder.join();
    Seen {
        refused,
        refused_while_held,
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
    match seen.refused_while_held {
        Ended::Returned(refused) => assert!(
            refused,
            "lock_both(&m, &m), while another thread held m, must return Err(SameLock)"
        ),
        Ended::Waiting => panic!(
            "lock_both(&m, &m) waited for m, which another thread held: the same mutex twice is refused before anything is locked, so it never waits"
        ),
        Ended::Panicked(message) => {
            panic!("lock_both(&m, &m), while another thread held m, panicked: {message}")
        }
    }
}
