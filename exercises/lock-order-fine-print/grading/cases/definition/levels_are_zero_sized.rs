//! Proves the definition: levels and tokens exist only as types, and the
//! ordered mutex and read-write lock are exactly as big as the `std` locks
//! they wrap, so none of the checks of this chapter costs memory.
use lock_order_fine_print::bank::{Accounts, History};
use lock_order_fine_print::{LockToken, OrderedMutex, OrderedRwLock, Unlocked};
use std::mem::size_of;
use std::sync::{Mutex, RwLock};

#[test]
fn levels_and_tokens_take_no_memory() {
    assert_eq!(size_of::<Unlocked>(), 0);
    assert_eq!(size_of::<Accounts>(), 0);
    assert_eq!(size_of::<History>(), 0);
    assert_eq!(size_of::<LockToken<'static, Unlocked>>(), 0);
    assert_eq!(size_of::<LockToken<'static, History>>(), 0);
}

#[test]
fn ordered_locks_are_std_locks() {
    assert_eq!(
        size_of::<OrderedMutex<Accounts, u64>>(),
        size_of::<Mutex<u64>>()
    );
    assert_eq!(
        size_of::<OrderedRwLock<History, Vec<u64>>>(),
        size_of::<RwLock<Vec<u64>>>()
    );
}
