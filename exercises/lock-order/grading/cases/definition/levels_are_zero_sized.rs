//! Proves the definition: lock levels and tokens exist only as types. A
//! level and a token take no memory, and an `OrderedMutex` is exactly as big
//! as the `std::sync::Mutex` it wraps, so the order costs nothing at run
//! time.
use lock_order::bank::{Accounts, Ledger, Tally};
use lock_order::{LockToken, OrderedMutex, Unlocked};
use std::mem::{align_of, size_of};
use std::sync::{Mutex, MutexGuard};

#[test]
fn levels_take_no_memory() {
    assert_eq!(size_of::<Unlocked>(), 0);
    assert_eq!(size_of::<Accounts>(), 0);
    assert_eq!(size_of::<Ledger>(), 0);
    assert_eq!(size_of::<Tally>(), 0);
}

#[test]
fn tokens_take_no_memory() {
    assert_eq!(size_of::<LockToken<'static, Unlocked>>(), 0);
    assert_eq!(size_of::<LockToken<'static, Tally>>(), 0);
    assert_eq!(
        size_of::<(MutexGuard<'static, u64>, LockToken<'static, Accounts>)>(),
        size_of::<MutexGuard<'static, u64>>(),
        "`lock` returns a std guard and a token: no bigger than the guard"
    );
}

#[test]
fn an_ordered_mutex_is_a_std_mutex() {
    assert_eq!(
        size_of::<OrderedMutex<Accounts, u64>>(),
        size_of::<Mutex<u64>>()
    );
    assert_eq!(
        align_of::<OrderedMutex<Accounts, u64>>(),
        align_of::<Mutex<u64>>()
    );
    assert_eq!(
        size_of::<OrderedMutex<Ledger, Vec<u64>>>(),
        size_of::<Mutex<Vec<u64>>>()
    );
}
