//! Proves the definition: levels and tokens exist only as types, and the
//! ordered mutex and read-write lock are exactly as big as the `std` locks
//! they wrap, so none of the checks of this chapter costs memory. The judge
//! compares the sizes the crate has with those of `std`'s own locks.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `Unlocked`, `Accounts`, `History`, a root token, a token at `History`.
    levels_and_tokens: [usize; 5],
    /// `OrderedMutex<Accounts, u64>`, `OrderedMutex<Accounts, [u8; 24]>`.
    mutexes: [usize; 2],
    /// `OrderedRwLock<History, Vec<u64>>`, `OrderedRwLock<History, u8>`.
    rwlocks: [usize; 2],
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    use lock_order_fine_print::bank::{Accounts, History};
    use lock_order_fine_print::{LockToken, OrderedMutex, OrderedRwLock, Unlocked};

    Seen {
        levels_and_tokens: [
            size_of::<Unlocked>(),
            size_of::<Accounts>(),
            size_of::<History>(),
            size_of::<LockToken<'static, Unlocked>>(),
            size_of::<LockToken<'static, History>>(),
        ],
        mutexes: [
            size_of::<OrderedMutex<Accounts, u64>>(),
            size_of::<OrderedMutex<Accounts, [u8; 24]>>(),
        ],
        rwlocks: [
            size_of::<OrderedRwLock<History, Vec<u64>>>(),
            size_of::<OrderedRwLock<History, u8>>(),
        ],
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    use std::sync::{Mutex, RwLock};

    assert_eq!(
        seen.levels_and_tokens, [0; 5],
        "levels (Unlocked, Accounts, History) and tokens (at Unlocked, at History) must take no memory"
    );
    assert_eq!(
        seen.mutexes,
        [size_of::<Mutex<u64>>(), size_of::<Mutex<[u8; 24]>>()],
        "an OrderedMutex must be exactly as big as the std Mutex it wraps"
    );
    assert_eq!(
        seen.rwlocks,
        [size_of::<RwLock<Vec<u64>>>(), size_of::<RwLock<u8>>()],
        "an OrderedRwLock must be exactly as big as the std RwLock it wraps"
    );
}
