//! Proves the definition: lock levels and tokens exist only as types. A
//! level and a token take no memory, `lock` returns nothing bigger than a
//! `std` guard, and an `OrderedMutex` has exactly the size and alignment of
//! the `std::sync::Mutex` it wraps, so the order costs nothing at run time.
//! The observing program reports the sizes; the judge compares them with
//! the sizes of the `std` types, which it measures itself.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// `(size, alignment)` of each type, as the learner's crate lays it out.
#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    levels: Vec<(String, usize)>,
    tokens: Vec<(String, usize)>,
    /// `(MutexGuard<u64>, LockToken<Accounts>)`: what `lock` returns.
    lock_result: usize,
    /// `OrderedMutex<Accounts, u64>`.
    mutex_u64: (usize, usize),
    /// `OrderedMutex<Ledger, Vec<u64>>`.
    mutex_vec: (usize, usize),
    /// `OrderedMutex<Tally, [u8; 3]>`.
    mutex_bytes: (usize, usize),
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    use lock_order::bank::{Accounts, Ledger, Tally};
    use lock_order::{LockToken, OrderedMutex, Unlocked};
    use std::mem::{align_of, size_of};
    use std::sync::MutexGuard;

    fn layout<T>() -> (usize, usize) {
        (size_of::<T>(), align_of::<T>())
    }
    Seen {
        levels: vec![
            ("Unlocked".into(), size_of::<Unlocked>()),
            ("Accounts".into(), size_of::<Accounts>()),
            ("Ledger".into(), size_of::<Ledger>()),
            ("Tally".into(), size_of::<Tally>()),
        ],
        tokens: vec![
            (
                "LockToken<'static, Unlocked>".into(),
                size_of::<LockToken<'static, Unlocked>>(),
            ),
            (
                "LockToken<'static, Tally>".into(),
                size_of::<LockToken<'static, Tally>>(),
            ),
        ],
        lock_result: size_of::<(MutexGuard<'static, u64>, LockToken<'static, Accounts>)>(),
        mutex_u64: layout::<OrderedMutex<Accounts, u64>>(),
        mutex_vec: layout::<OrderedMutex<Ledger, Vec<u64>>>(),
        mutex_bytes: layout::<OrderedMutex<Tally, [u8; 3]>>(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    use std::mem::{align_of, size_of};
    use std::sync::{Mutex, MutexGuard};

    fn layout<T>() -> (usize, usize) {
        (size_of::<T>(), align_of::<T>())
    }
    assert_eq!(seen.levels.len(), 4);
    for (level, size) in &seen.levels {
        assert_eq!(
            *size, 0,
            "the level `{level}` takes {size} bytes: a level is a type with no values"
        );
    }
    assert_eq!(seen.tokens.len(), 2);
    for (token, size) in &seen.tokens {
        assert_eq!(
            *size, 0,
            "`{token}` takes {size} bytes: a token is only a type"
        );
    }
    assert_eq!(
        seen.lock_result,
        size_of::<MutexGuard<'static, u64>>(),
        "`lock` returns a std guard and a token: together no bigger than the guard"
    );
    for ((size, align), (std_size, std_align), what) in [
        (
            seen.mutex_u64,
            layout::<Mutex<u64>>(),
            "OrderedMutex<Accounts, u64>",
        ),
        (
            seen.mutex_vec,
            layout::<Mutex<Vec<u64>>>(),
            "OrderedMutex<Ledger, Vec<u64>>",
        ),
        (
            seen.mutex_bytes,
            layout::<Mutex<[u8; 3]>>(),
            "OrderedMutex<Tally, [u8; 3]>",
        ),
    ] {
        assert_eq!(
            (size, align),
            (std_size, std_align),
            "`{what}` has size {size} and alignment {align}; the std mutex it wraps has {std_size} and {std_align}"
        );
    }
}
