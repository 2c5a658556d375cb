//! Proves enforcement: the `std` traits that the manifest lets the ordered
//! locks implement (`Default`, `From<T>`, `Debug`) keep the order, whenever
//! the crate has them. A lock made by `Default` or `From` is a new lock,
//! unlocked, holding the value it was given; and `Debug` never waits for a
//! lock: formatting a mutex (or a read-write lock) that this very thread
//! holds must not wait for it, which is what a `Debug` that locks without a
//! token would do (the case sees it wait on the lock: see `support`). Where
//! the crate has no such impl, there is nothing to check. The values come
//! from the seed.
use crate::support::{Ended, values};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// What a probe saw: `None` when the crate has no such impl.
type Probed<T> = Option<Ended<T>>;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Each lock made by `Default`, then locked: its value.
    mutex_default: Probed<u64>,
    rwlock_default: Probed<u64>,
    /// Each lock made by `From`, then locked: its value.
    mutex_from: Probed<u64>,
    rwlock_from: Probed<u64>,
    /// `{:?}` of a mutex this thread holds, of a lock it writes.
    mutex_debug_while_held: Ended<Option<String>>,
    rwlock_debug_while_written: Ended<Option<String>>,
}

fn inputs(seed: Seed) -> Vec<u64> {
    values(seed, 0x57d1, 4, 1 << 40)
}

#[cfg(not(xsafe_judge))]
mod probes {
    //! Whether a type implements a trait, asked of the compiler where the
    //! type is known: method lookup tries `Probe<T>` before `&Probe<T>`, so
    //! the first trait answers when its bound holds, the second otherwise.
    use std::fmt::Debug;
    use std::marker::PhantomData;

    pub struct Probe<T>(pub PhantomData<T>);

    pub trait ByDefault<T> {
        fn by_default(&self) -> Option<T>;
    }
    impl<T: Default> ByDefault<T> for Probe<T> {
        fn by_default(&self) -> Option<T> {
            Some(T::default())
        }
    }
    pub trait NoDefault<T> {
        fn by_default(&self) -> Option<T> {
            None
        }
    }
    impl<T> NoDefault<T> for &Probe<T> {}

    pub trait FromValue<T> {
        fn from_value(&self, value: u64) -> Option<T>;
    }
    impl<T: From<u64>> FromValue<T> for Probe<T> {
        fn from_value(&self, value: u64) -> Option<T> {
            Some(T::from(value))
        }
    }
    pub trait NoFrom<T> {
        fn from_value(&self, _value: u64) -> Option<T> {
            None
        }
    }
    impl<T> NoFrom<T> for &Probe<T> {}

    pub trait Shown<T> {
        fn shown(&self, value: &T) -> Option<String>;
    }
    impl<T: Debug> Shown<T> for Probe<T> {
        fn shown(&self, value: &T) -> Option<String> {
            Some(format!("{value:?}"))
        }
    }
    pub trait NotShown<T> {
        fn shown(&self, _value: &T) -> Option<String> {
            None
        }
    }
    impl<T> NotShown<T> for &Probe<T> {}
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
        Lock, OrderedMutex, OrderedRwLock, ReadLock, WriteLock, impl_lock_after, with_token,
    };
    use probes::{ByDefault, FromValue, NoDefault, NoFrom, NotShown, Probe, Shown};
    use std::marker::PhantomData;
    use std::sync::Arc;

    enum Level {}
    impl_lock_after!(Unlocked => Level);
    type Mutex = OrderedMutex<Level, u64>;
    type RwLock = OrderedRwLock<Level, u64>;

    /// Locks a new mutex in a thread of its own: its value, or `Waiting`.
    fn mutex_value(mutex: Mutex) -> Ended<u64> {
        let mutex = in_arena(mutex);
        let memory = memory_of(&*mutex);
        watch(move || with_token(|token| *mutex.lock(token).0))
            .ended_or_sleeping_on(&memory, PROMPT)
    }
    fn rwlock_value(lock: RwLock) -> Ended<u64> {
        let lock = in_arena(lock);
        let memory = memory_of(&*lock);
        watch(move || with_token(|token| *lock.read(token).0)).ended_or_sleeping_on(&memory, PROMPT)
    }

    let v = inputs(seed);
    let mutex_default = (&Probe::<Mutex>(PhantomData)).by_default().map(mutex_value);
    let rwlock_default = (&Probe::<RwLock>(PhantomData))
        .by_default()
        .map(rwlock_value);
    let mutex_from = (&Probe::<Mutex>(PhantomData))
        .from_value(v[0])
        .map(mutex_value);
    let rwlock_from = (&Probe::<RwLock>(PhantomData))
        .from_value(v[1])
        .map(rwlock_value);

    let mutex = in_arena(Mutex::new(v[2]));
    let memory = memory_of(&*mutex);
    let mutex_debug_while_held = with_token(|token| {
        let (_held, _) = mutex.lock(token);
        let mutex = Arc::clone(&mutex);
        watch(move || (&Probe::<Mutex>(PhantomData)).shown(&mutex))
            .ended_or_sleeping_on(&memory, PROMPT)
    });
    let rwlock = in_arena(RwLock::new(v[3]));
    let memory = memory_of(&*rwlock);
    let rwlock_debug_while_written = with_token(|token| {
        let (_written, _) = rwlock.write(token);
        let rwlock = Arc::clone(&rwlock);
        watch(move || (&Probe::<RwLock>(PhantomData)).shown(&rwlock))
            .ended_or_sleeping_on(&memory, PROMPT)
    });
    Seen {
        mutex_default,
        rwlock_default,
        mutex_from,
        rwlock_from,
        mutex_debug_while_held,
        rwlock_debug_while_written,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let v = inputs(seed);
    for (what, probed, value) in [
        ("an OrderedMutex made by Default", &seen.mutex_default, 0),
        ("an OrderedRwLock made by Default", &seen.rwlock_default, 0),
        ("an OrderedMutex made by From", &seen.mutex_from, v[0]),
        ("an OrderedRwLock made by From", &seen.rwlock_from, v[1]),
    ] {
        match probed {
            None => {}
            Some(Ended::Returned(got)) => {
                assert_eq!(*got, value, "{what} must hold the value it was made with")
            }
            Some(Ended::Waiting) => {
                panic!("{what} was locked already: a new lock must be unlocked")
            }
            Some(Ended::Panicked(message)) => panic!("locking {what} panicked: {message}"),
        }
    }
    for (what, shown) in [
        (
            "an OrderedMutex that this thread holds",
            &seen.mutex_debug_while_held,
        ),
        (
            "an OrderedRwLock that this thread writes",
            &seen.rwlock_debug_while_written,
        ),
    ] {
        match shown {
            Ended::Returned(_) => {}
            Ended::Waiting => panic!(
                "formatting {what} with {{:?}} waited for the lock: Debug locks without a token, so it can deadlock; format what `std`'s lock shows (its Debug never waits)"
            ),
            Ended::Panicked(message) => panic!("formatting {what} with {{:?}} panicked: {message}"),
        }
    }
}
