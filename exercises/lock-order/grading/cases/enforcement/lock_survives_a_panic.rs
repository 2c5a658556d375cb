//! Proves enforcement: a panic while locks are held leaves them usable, as
//! `lock`'s documentation promises. A thread that catches a panic raised
//! while it held two ordered locks locks both again with the same root
//! token, and finds what the panicking code wrote (the lock was poisoned,
//! and `lock` hands it out all the same); a lock whose holder thread died
//! in a panic is handed out too; `get_mut` and `into_inner` work on a
//! poisoned mutex. Everything runs in an order fixed by the case (the
//! other thread is joined before the lock is taken again), and the values
//! come from the judge's seed.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

struct Inputs {
    start: Vec<u64>,
    written: u64,
    recorded: u64,
    by_other_thread: u64,
}

fn inputs(seed: Seed) -> Inputs {
    let mut rng = seed.rng();
    let accounts = rng.usize(1..6);
    Inputs {
        start: (0..accounts).map(|_| rng.u64(..1_000_000)).collect(),
        written: rng.u64(..1_000_000),
        recorded: rng.u64(..1_000_000),
        by_other_thread: rng.u64(..1_000_000),
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    caught: bool,
    /// The two mutexes, locked again in order after the caught panic.
    balances: Vec<u64>,
    ledger: Vec<u64>,
    /// After another thread died holding the balances.
    after_thread: Vec<u64>,
    thread_panicked: bool,
    /// `get_mut` and `into_inner` of the poisoned mutexes.
    get_mut: Vec<u64>,
    into_inner: Vec<u64>,
}

#[cfg(not(xsafe_judge))]
mod levels {
    use lock_order::impl_lock_after;

    pub enum Balances {}
    pub enum Journal {}

    impl_lock_after!(Unlocked => Balances);
    impl_lock_after!(Balances => Journal);
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use levels::{Balances, Journal};
    use lock_order::{LockToken, OrderedMutex};
    use std::panic::{self, AssertUnwindSafe};
    use std::sync::Arc;
    use std::thread;

    let Inputs {
        start,
        written,
        recorded,
        by_other_thread,
    } = inputs(seed);
    let balances = Arc::new(OrderedMutex::<Balances, Vec<u64>>::new(start));
    let ledger = OrderedMutex::<Journal, Vec<u64>>::new(Vec::new());

    // The two panics below are expected: keep their messages out of the
    // details, and only theirs (a panic of the code under test elsewhere
    // is reported as usual).
    let quiet = || {
        let hook = panic::take_hook();
        panic::set_hook(Box::new(|_| {}));
        hook
    };

    let mut root = LockToken::new();
    let hook = quiet();
    let caught = panic::catch_unwind(AssertUnwindSafe(|| {
        let (mut held, mut at_balances) = balances.lock(&mut root);
        held.push(written);
        let (mut entries, _) = ledger.lock(&mut at_balances);
        entries.push(recorded);
        panic!("a panic with both locks held");
    }))
    .is_err();
    panic::set_hook(hook);

    let (held, mut at_balances) = balances.lock(&mut root);
    let after_balances = held.clone();
    let (entries, _) = ledger.lock(&mut at_balances);
    let after_ledger = entries.clone();
    drop((entries, held));

    let hook = quiet();
    let thread_panicked = thread::spawn({
        let balances = Arc::clone(&balances);
        move || {
            let mut token = LockToken::new();
            let (mut held, _) = balances.lock(&mut token);
            held.push(by_other_thread);
            panic!("a thread dies holding the balances");
        }
    })
    .join()
    .is_err();
    panic::set_hook(hook);

    let (held, _) = balances.lock(&mut root);
    let after_thread = held.clone();
    drop(held);

    let mut balances = Arc::into_inner(balances).expect("the other thread is gone");
    let get_mut = balances.get_mut().clone();
    let into_inner = balances.into_inner();
    let _ = ledger.into_inner();
    Seen {
        caught,
        balances: after_balances,
        ledger: after_ledger,
        after_thread,
        thread_panicked,
        get_mut,
        into_inner,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let Inputs {
        start,
        written,
        recorded,
        by_other_thread,
    } = inputs(seed);
    assert!(
        seen.caught,
        "the panic raised with both locks held must reach catch_unwind"
    );
    let mut balances = start.clone();
    balances.push(written);
    assert_eq!(
        seen.balances, balances,
        "after the caught panic, the balances hold what the panicking code wrote"
    );
    assert_eq!(
        seen.ledger,
        [recorded],
        "after the caught panic, the ledger holds what the panicking code wrote"
    );
    assert!(seen.thread_panicked, "the other thread panicked");
    balances.push(by_other_thread);
    assert_eq!(
        seen.after_thread, balances,
        "a lock whose holder thread died is handed out, with what that thread wrote"
    );
    assert_eq!(seen.get_mut, balances, "get_mut() on a poisoned mutex");
    assert_eq!(
        seen.into_inner, balances,
        "into_inner() on a poisoned mutex"
    );
}
