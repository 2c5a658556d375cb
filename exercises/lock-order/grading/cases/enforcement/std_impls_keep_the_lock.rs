//! Proves enforcement: the std traits a solution may implement for
//! `OrderedMutex` (the manifest's `[surface] allow` list) keep the lock
//! what it is. If the crate has them: `Default` and `From` make a new mutex
//! that is not locked and holds the default or the given value, and
//! formatting with `Debug` never waits for the lock, which would be a lock
//! taken outside the order (it may show the mutex as locked: `std`'s own
//! `Debug` does). A mutex is formatted while this thread holds its lock, so
//! a `Debug` that waits for it always does. The values come from the
//! judge's seed.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Seconds a lock or a format may take before it counts as waiting: these
/// take microseconds, and a wait here is certain, not a matter of timing.
const PATIENCE: u64 = 5;

fn values(seed: Seed) -> (u64, u64, u64) {
    let mut rng = seed.rng();
    (rng.u64(..), rng.u64(..), rng.u64(..))
}

/// What one std impl did, if the crate has it: `Absent`, or what locking
/// and unwrapping the mutex it made gave (`None` for a lock that waited).
#[derive(Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Made {
    Absent,
    Made {
        locked: Option<u64>,
        into_inner: Option<u64>,
    },
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    default: Made,
    from: Made,
    /// `None` when the mutex has no `Debug`; then whether formatting it
    /// while its lock was held returned (`false`: it waited).
    debug_returned: Option<bool>,
}

#[cfg(not(xsafe_judge))]
mod probe {
    use super::{Made, PATIENCE};
    use lock_order::{LockToken, OrderedMutex, impl_lock_after};
    use std::cell::Cell;
    use std::fmt::Debug;
    use std::marker::PhantomData;
    use std::sync::{Arc, mpsc};
    use std::thread;
    use std::time::Duration;

    pub enum Probed {}
    impl_lock_after!(Unlocked => Probed);

    pub type Mutex = OrderedMutex<Probed, Marked>;

    thread_local! {
        static DEFAULT: Cell<u64> = const { Cell::new(0) };
    }

    /// A value whose `Default` the seed decides.
    #[derive(Debug)]
    pub struct Marked(pub u64);

    impl Default for Marked {
        fn default() -> Self {
            Marked(DEFAULT.with(Cell::get))
        }
    }

    pub fn set_default(value: u64) {
        DEFAULT.with(|default| default.set(value));
    }

    pub struct Probe<T>(PhantomData<T>);

    pub fn probe<T>() -> Probe<T> {
        Probe(PhantomData)
    }

    // Method lookup tries `Probe` itself before `&Probe`: the first trait
    // of each pair answers when its bound holds, the second otherwise.
    pub trait HasDefault<T> {
        fn made_by_default(&self) -> Option<T>;
    }
    impl<T: Default> HasDefault<T> for Probe<T> {
        fn made_by_default(&self) -> Option<T> {
            Some(T::default())
        }
    }
    #[allow(dead_code)]
    pub trait NoDefault<T> {
        fn made_by_default(&self) -> Option<T> {
            None
        }
    }
    impl<T> NoDefault<T> for &Probe<T> {}

    pub trait HasFrom<T> {
        fn made_from(&self, value: Marked) -> Option<T>;
    }
    impl<T: From<Marked>> HasFrom<T> for Probe<T> {
        fn made_from(&self, value: Marked) -> Option<T> {
            Some(T::from(value))
        }
    }
    #[allow(dead_code)]
    pub trait NoFrom<T> {
        fn made_from(&self, _value: Marked) -> Option<T> {
            None
        }
    }
    impl<T> NoFrom<T> for &Probe<T> {}

    pub trait HasDebug<T> {
        fn formatter(&self) -> Option<fn(&T) -> String>;
    }
    impl<T: Debug> HasDebug<T> for Probe<T> {
        fn formatter(&self) -> Option<fn(&T) -> String> {
            Some(|value| format!("{value:?}"))
        }
    }
    #[allow(dead_code)]
    pub trait NoDebug<T> {
        fn formatter(&self) -> Option<fn(&T) -> String> {
            None
        }
    }
    impl<T> NoDebug<T> for &Probe<T> {}

    /// Runs `work` on a thread of its own; `None` if it has not returned
    /// after `PATIENCE` seconds (the thread is then left waiting).
    fn patiently<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> Option<R> {
        let (done, finished) = mpsc::channel();
        thread::spawn(move || {
            let _ = done.send(work());
        });
        finished.recv_timeout(Duration::from_secs(PATIENCE)).ok()
    }

    /// Locks a mutex a std impl made, then unwraps it.
    pub fn examine(made: Option<Mutex>) -> Made {
        let Some(mutex) = made else {
            return Made::Absent;
        };
        let mutex = Arc::new(mutex);
        let locked = patiently({
            let mutex = Arc::clone(&mutex);
            move || {
                let mut token = LockToken::new();
                let (guard, _) = mutex.lock(&mut token);
                guard.0
            }
        });
        let into_inner = locked
            .and_then(|_| Arc::into_inner(mutex))
            .map(|mutex| mutex.into_inner().0);
        Made::Made { locked, into_inner }
    }

    /// Formats `mutex` on another thread while this one holds its lock.
    pub fn format_while_locked(format: fn(&Mutex) -> String, value: u64) -> bool {
        let mutex = Arc::new(Mutex::new(Marked(value)));
        let mut token = LockToken::new();
        let (guard, _) = mutex.lock(&mut token);
        let returned = patiently({
            let mutex = Arc::clone(&mutex);
            move || format(&mutex)
        })
        .is_some();
        drop(guard);
        returned
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use probe::{HasDebug, HasDefault, HasFrom, Marked, Mutex, NoDebug, NoDefault, NoFrom};

    let (default_value, from_value, debug_value) = values(seed);
    probe::set_default(default_value);
    let default = probe::examine((&probe::probe::<Mutex>()).made_by_default());
    let from = probe::examine((&probe::probe::<Mutex>()).made_from(Marked(from_value)));
    let debug_returned = (&probe::probe::<Mutex>())
        .formatter()
        .map(|format| probe::format_while_locked(format, debug_value));
    Seen {
        default,
        from,
        debug_returned,
    }
}

pub fn judge(seed: Seed, seen: Seen) {
    let (default_value, from_value, _) = values(seed);
    for (made, what, value) in [
        (&seen.default, "OrderedMutex::default()", default_value),
        (&seen.from, "OrderedMutex::from(value)", from_value),
    ] {
        if let Made::Made { locked, into_inner } = made {
            assert!(
                locked.is_some(),
                "locking the mutex that {what} made waited for {PATIENCE} s: a new mutex must not be locked"
            );
            assert_eq!(
                *locked,
                Some(value),
                "the mutex that {what} made must hold {value} (the value's default, or the value given)"
            );
            assert_eq!(
                *into_inner,
                Some(value),
                "into_inner() on the mutex that {what} made"
            );
        }
    }
    if let Some(returned) = seen.debug_returned {
        assert!(
            returned,
            "formatting an OrderedMutex with {{:?}} while its lock was held waited for {PATIENCE} s: Debug must not wait for the lock (it would be a lock outside the order); show it as locked instead, as std's Mutex does"
        );
    }
}
