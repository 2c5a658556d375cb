//! The lock order takes no memory: levels and tokens are zero-sized, and an
//! ordered mutex is exactly the `std` mutex it wraps.

use lock_order::bank::{Accounts, Ledger, Tally};
use lock_order::{LockToken, OrderedMutex, Unlocked};
use std::mem::{align_of, size_of};
use std::sync::{Mutex, MutexGuard};

#[test]
fn levels_and_tokens_are_zero_sized() {
    assert_eq!(size_of::<Unlocked>(), 0);
    assert_eq!(size_of::<Accounts>(), 0);
    assert_eq!(size_of::<LockToken<'static, Unlocked>>(), 0);
    assert_eq!(size_of::<LockToken<'static, Tally>>(), 0);
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
        size_of::<OrderedMutex<Ledger, [u8; 100]>>(),
        size_of::<Mutex<[u8; 100]>>()
    );
    // What `lock` returns is a std guard and a token: no bigger than the guard.
    assert_eq!(
        size_of::<(MutexGuard<'static, u64>, LockToken<'static, Accounts>)>(),
        size_of::<MutexGuard<'static, u64>>()
    );
}
