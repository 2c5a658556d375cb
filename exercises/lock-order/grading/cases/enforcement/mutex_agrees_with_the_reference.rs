//! Proves enforcement: `OrderedMutex` and `LockToken` behave as the
//! reference solution's do, operation by operation. The same fixed script
//! runs on the learner's crate (observed) and on the reference solution
//! (in the judge), and the judge compares every step: `new`, `lock` nested
//! two levels deep, `get_mut`, `into_inner`, and, when the crate has them,
//! `try_lock` (it must refuse a lock that is held, without waiting, and
//! hand out a free one, poisoned or not, as `lock` does), `fork` (a token
//! that locks as the one it borrows), `Default`, `From` and `Debug` of the
//! mutex and the token in `{:?}` and `{:#?}`, held and not held (formatting
//! must never wait for the lock). A callback supplied by the script panics
//! at each point of a nested critical section in turn (after the first
//! lock, after each write, after the second lock): the state afterwards,
//! and whether the locks are handed out again, must match the reference's.
//! The strings come from the judge's seed, from a small set so that values
//! repeat; the script's shape is fixed. A wait is bounded: a lock, a
//! `try_lock` or a format that waits for a lock held by this thread is
//! given up after a few seconds and reported as `Waited`.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Seconds a `try_lock` or a format may take before it counts as waiting:
/// they take microseconds, and a wait here is certain, not a matter of
/// timing (the lock is held by the observing thread until the time is up).
const PATIENCE: u64 = 5;

/// The points of the nested critical section where the callback panics;
/// `POINTS` itself is a run where it does not panic.
const POINTS: usize = 5;

/// The strings the script writes: a small set, so values repeat.
fn values(seed: Seed) -> Vec<String> {
    let mut rng = seed.rng();
    let words = ["ant", "bee", "", "cat", "ant bee"];
    (0..24)
        .map(|_| words[rng.usize(..words.len())].repeat(rng.usize(1..3)))
        .collect()
}

/// What a `try_lock` (or its stand-in, where the crate has none) gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tried {
    /// The lock, and what the mutex held.
    Got(Vec<String>),
    /// `None`: the lock was held.
    Refused,
    /// It had not returned after `PATIENCE` seconds.
    Waited,
}

/// How formatting went: `Absent` if the type has no `Debug`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Formatted {
    Absent,
    Returned,
    Waited,
    /// Not tried: an earlier `try_lock` or format already waited, and the
    /// case tries nothing more that could wait (that wait is reported).
    NotTried,
}

/// One observation of the script, named by its step.
pub type Step = (String, String);

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// Every step's observation, in order: `(step, what was seen)`.
    steps: Vec<Step>,
    /// Formatting, which the reference cannot do: `(step, outcome)`.
    formats: Vec<(String, Formatted)>,
}

/// The script, written once for both crates: `$krate` is `lock_order` in
/// the observing program and `xsafe_reference` in the judge. A `try_lock`,
/// `fork`, `Default` or `From` the crate lacks is stood in for by what the
/// reference's `lock`, token and `new` do, so the state is the same either
/// way and the steps compare one for one.
macro_rules! script {
    ($krate:ident) => {
        use super::{POINTS, PATIENCE, Step, Tried, Formatted};
        use $krate::{LockToken, OrderedMutex, impl_lock_after};
        use std::cell::Cell;
        use std::fmt::Debug;
        use std::marker::PhantomData;
        use std::panic::{self, AssertUnwindSafe};
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{Arc, MutexGuard, mpsc};
        use std::thread;
        use std::time::Duration;

        pub enum Outer {}
        pub enum Inner {}
        impl_lock_after!(Unlocked => Outer);
        impl_lock_after!(Outer => Inner);

        pub type Mutex<L> = OrderedMutex<L, Vec<String>>;

        /// What a method the crate lacks returns.
        pub struct Absent;

        // Inherent methods come before trait methods: these answer only
        // where the crate has no method of the name.
        #[allow(dead_code)]
        pub trait NoTryLock {
            fn try_lock<'a, H>(&'a self, _token: &'a mut LockToken<'_, H>) -> Absent {
                Absent
            }
        }
        impl<L, T> NoTryLock for OrderedMutex<L, T> {}

        #[allow(dead_code)]
        pub trait NoFork {
            fn fork(&mut self) -> Absent {
                Absent
            }
        }
        impl<L> NoFork for LockToken<'_, L> {}

        /// A `try_lock`'s answer: `None` where the crate has none.
        pub trait Answer<'a> {
            fn answer(self) -> Option<Option<MutexGuard<'a, Vec<String>>>>;
        }
        impl<'a, L> Answer<'a> for Option<(MutexGuard<'a, Vec<String>>, LockToken<'a, L>)> {
            fn answer(self) -> Option<Option<MutexGuard<'a, Vec<String>>>> {
                Some(self.map(|(guard, _)| guard))
            }
        }
        impl<'a> Answer<'a> for Absent {
            fn answer(self) -> Option<Option<MutexGuard<'a, Vec<String>>>> {
                None
            }
        }

        pub trait Forked<'a, L> {
            fn forked(self) -> Option<LockToken<'a, L>>;
        }
        impl<'a, L> Forked<'a, L> for LockToken<'a, L> {
            fn forked(self) -> Option<LockToken<'a, L>> {
                Some(self)
            }
        }
        impl<'a, L> Forked<'a, L> for Absent {
            fn forked(self) -> Option<LockToken<'a, L>> {
                None
            }
        }

        pub struct Probe<T>(PhantomData<T>);
        pub fn probe<T>() -> Probe<T> {
            Probe(PhantomData)
        }
        // Method lookup tries `Probe` itself before `&Probe`: the first
        // trait of each pair answers when its bound holds.
        pub trait HasDebug<T> {
            fn formatter(&self) -> Option<fn(&T, bool) -> String>;
        }
        impl<T: Debug> HasDebug<T> for Probe<T> {
            fn formatter(&self) -> Option<fn(&T, bool) -> String> {
                Some(|value, pretty| {
                    if pretty {
                        format!("{value:#?}")
                    } else {
                        format!("{value:?}")
                    }
                })
            }
        }
        #[allow(dead_code)]
        pub trait NoDebug<T> {
            fn formatter(&self) -> Option<fn(&T, bool) -> String> {
                None
            }
        }
        impl<T> NoDebug<T> for &Probe<T> {}

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
            fn made_from(&self, value: Vec<String>) -> Option<T>;
        }
        impl<T: From<Vec<String>>> HasFrom<T> for Probe<T> {
            fn made_from(&self, value: Vec<String>) -> Option<T> {
                Some(T::from(value))
            }
        }
        #[allow(dead_code)]
        pub trait NoFrom<T> {
            fn made_from(&self, _value: Vec<String>) -> Option<T> {
                None
            }
        }
        impl<T> NoFrom<T> for &Probe<T> {}

        /// The observations, and a way to add one.
        #[derive(Default)]
        pub struct Log {
            pub steps: Vec<Step>,
            pub formats: Vec<(String, Formatted)>,
        }

        impl Log {
            fn see(&mut self, step: impl Into<String>, seen: impl Debug) {
                self.steps.push((step.into(), format!("{seen:?}")));
            }
        }

        /// Set once a wait was given up: later waits are not tried, so
        /// that a solution that waits fails in seconds, not at the
        /// grader's time limit.
        static GAVE_UP: AtomicBool = AtomicBool::new(false);

        /// Runs `work` on another thread while this one goes on holding
        /// whatever it holds; `None` if it has not returned in time (it
        /// finishes later, once this thread lets go).
        fn patiently<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> Option<R> {
            if GAVE_UP.load(Ordering::SeqCst) {
                return None;
            }
            let (done, finished) = mpsc::channel();
            thread::spawn(move || {
                let _ = done.send(work());
            });
            let answer = finished.recv_timeout(Duration::from_secs(PATIENCE)).ok();
            if answer.is_none() {
                GAVE_UP.store(true, Ordering::SeqCst);
            }
            answer
        }

        /// `try_lock` on this thread with a token of its own, or its stand-in.
        fn try_free<L: 'static>(mutex: &Mutex<L>, push: &str) -> Tried
        where
            $krate::Unlocked: $krate::LockBefore<L>,
        {
            let mut token = LockToken::new();
            let tried = match mutex.try_lock(&mut token).answer() {
                Some(Some(mut guard)) => {
                    let seen = guard.clone();
                    guard.push(push.to_owned());
                    Some(Tried::Got(seen))
                }
                Some(None) => Some(Tried::Refused),
                None => None,
            };
            if let Some(tried) = tried {
                return tried;
            }
            let (mut guard, _) = mutex.lock(&mut token);
            let seen = guard.clone();
            guard.push(push.to_owned());
            Tried::Got(seen)
        }

        /// `try_lock` on another thread while this one holds the lock
        /// (its stand-in refuses).
        fn try_held<L: 'static>(mutex: &Arc<Mutex<L>>) -> Tried
        where
            $krate::Unlocked: $krate::LockBefore<L>,
        {
            let mutex = Arc::clone(mutex);
            patiently(move || {
                let mut token = LockToken::new();
                let tried = match mutex.try_lock(&mut token).answer() {
                    Some(Some(guard)) => Tried::Got(guard.clone()),
                    Some(None) | None => Tried::Refused,
                };
                tried
            })
            .unwrap_or(Tried::Waited)
        }

        /// Formats `value` in both modes, on another thread, while this
        /// thread holds what it holds.
        fn format<T: Send + Sync + 'static>(
            log: &mut Log,
            step: &str,
            value: &Arc<T>,
            format: Option<fn(&T, bool) -> String>,
        ) {
            for pretty in [false, true] {
                let mode = if pretty { "{:#?}" } else { "{:?}" };
                let outcome = match format {
                    None => Formatted::Absent,
                    Some(_) if GAVE_UP.load(Ordering::SeqCst) => Formatted::NotTried,
                    Some(format) => {
                        let value = Arc::clone(value);
                        patiently(move || format(&value, pretty))
                            .map_or(Formatted::Waited, |_| Formatted::Returned)
                    }
                };
                log.formats.push((format!("{step}, {mode}"), outcome));
            }
        }

        /// Formats a token in both modes, on this thread: a token has no
        /// lock to wait for.
        fn format_here<T>(log: &mut Log, step: &str, value: &T, format: Option<fn(&T, bool) -> String>) {
            for pretty in [false, true] {
                let mode = if pretty { "{:#?}" } else { "{:?}" };
                let outcome = match format {
                    None => Formatted::Absent,
                    Some(format) => {
                        format(value, pretty);
                        Formatted::Returned
                    }
                };
                log.formats.push((format!("{step}, {mode}"), outcome));
            }
        }

        /// Locks `inner` with `token` (a fork, or the token it stands in
        /// for) and writes to it.
        fn nested<H: $krate::LockBefore<Inner>>(
            log: &mut Log,
            inner: &Arc<Mutex<Inner>>,
            token: &mut LockToken<'_, H>,
            first: &[String],
            word: &str,
        ) {
            let (mut second, _) = inner.lock(token);
            log.see("lock Inner under Outer with a fork", second.clone());
            second.push(word.to_owned());
            second.push(first.last().cloned().unwrap_or_default());
            log.see("try_lock Inner while held", try_held(inner));
        }

        thread_local! {
            static CALLS: Cell<usize> = const { Cell::new(0) };
        }

        /// The script's callback: panics on its `point`-th call.
        fn callback(point: usize) {
            let call = CALLS.with(|calls| {
                let call = calls.get();
                calls.set(call + 1);
                call
            });
            if call == point {
                panic!("the callback panics at point {point}");
            }
        }

        pub fn run(values: &[String]) -> Log {
            let mut log = Log::default();
            let word = |i: usize| values[i % values.len()].clone();
            let mutex_debug = (&probe::<Mutex<Outer>>()).formatter();
            let token_debug = (&probe::<LockToken<'static, $krate::Unlocked>>()).formatter();

            // Construction: new, Default, From.
            let outer = Arc::new(Mutex::<Outer>::new(vec![word(0), word(1)]));
            let inner = Arc::new(Mutex::<Inner>::new(Vec::new()));
            let made = (&probe::<Mutex<Outer>>())
                .made_by_default()
                .unwrap_or_else(|| OrderedMutex::new(Vec::new()));
            log.see("Default, then into_inner", made.into_inner());
            let made = (&probe::<Mutex<Outer>>())
                .made_from(vec![word(2), word(2)])
                .unwrap_or_else(|| OrderedMutex::new(vec![word(2), word(2)]));
            log.see("From, then try_lock", try_free(&made, &word(3)));
            log.see("From, then into_inner", made.into_inner());

            // Formatting, not held.
            {
                let root = LockToken::new();
                format_here(&mut log, "a token", &root, token_debug);
            }
            format(&mut log, "a mutex not held", &outer, mutex_debug);

            // Nested locks, try_lock while held and free, fork.
            let mut root = LockToken::new();
            {
                let (mut first, mut at_outer) = outer.lock(&mut root);
                log.see("lock Outer", first.clone());
                first.push(word(4));
                log.see("try_lock Outer while held", try_held(&outer));
                format(&mut log, "a mutex held", &outer, mutex_debug);
                format_here(&mut log, "the token at Outer", &at_outer, (&probe::<LockToken<'_, Outer>>()).formatter());
                let forked: Option<LockToken<'_, Outer>> = Forked::forked(at_outer.fork());
                match forked {
                    Some(mut fork) => nested(&mut log, &inner, &mut fork, &first, &word(5)),
                    None => nested(&mut log, &inner, &mut at_outer, &first, &word(5)),
                }
                let (second, _) = inner.lock(&mut at_outer);
                log.see("lock Inner again under Outer", second.clone());
            }
            log.see("try_lock Outer, free", try_free(&outer, &word(6)));
            log.see("try_lock Inner, free", try_free(&inner, &word(7)));

            // A panic at each point of a nested critical section.
            let quiet = panic::take_hook();
            panic::set_hook(Box::new(|_| {}));
            for point in 0..=POINTS {
                CALLS.with(|calls| calls.set(0));
                let panicked = panic::catch_unwind(AssertUnwindSafe(|| {
                    let (mut first, mut at_outer) = outer.lock(&mut root);
                    callback(point);
                    first.push(word(8 + point));
                    callback(point);
                    let (mut second, _) = inner.lock(&mut at_outer);
                    callback(point);
                    second.push(word(9 + point));
                    callback(point);
                    first.retain(|value| !value.is_empty());
                    callback(point);
                }))
                .is_err();
                log.see(format!("panic at point {point}: the callback panicked"), panicked);
                log.see(format!("panic at point {point}: try_lock Outer"), try_free(&outer, &word(10 + point)));
                let (first, mut at_outer) = outer.lock(&mut root);
                log.see(format!("panic at point {point}: lock Outer"), first.clone());
                log.see(format!("panic at point {point}: try_lock Inner"), try_free(&inner, &word(11 + point)));
                let (second, _) = inner.lock(&mut at_outer);
                log.see(format!("panic at point {point}: lock Inner"), second.clone());
            }
            panic::set_hook(quiet);
            format(&mut log, "a mutex after the panics", &outer, mutex_debug);

            // get_mut and into_inner, after the panics.
            // (A thread that still waits for a lock shares the mutexes.)
            let (Some(mut outer), Some(inner)) = (Arc::into_inner(outer), Arc::into_inner(inner))
            else {
                log.see("into_inner", "a thread that waited for a lock still shares the mutexes");
                return log;
            };
            outer.get_mut().push(word(12));
            log.see("get_mut Outer", outer.get_mut().clone());
            log.see("into_inner Outer", outer.into_inner());
            log.see("into_inner Inner", inner.into_inner());
            log
        }
    };
}

#[cfg(not(xsafe_judge))]
mod learner {
    script!(lock_order);
}

#[cfg(xsafe_judge)]
mod reference {
    script!(xsafe_reference);
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    let log = learner::run(&values(seed));
    Seen {
        steps: log.steps,
        formats: log.formats,
    }
}

#[cfg(xsafe_judge)]
pub fn judge(seed: Seed, seen: Seen) {
    let expected = reference::run(&values(seed));
    for (step, formatted) in &seen.formats {
        assert!(
            *formatted != Formatted::Waited,
            "formatting {step} waited for {PATIENCE} s: Debug must not wait for a lock (it would be a lock outside the order, without a token); show it as locked instead, as std's Mutex does"
        );
    }
    for (index, (step, want)) in expected.steps.iter().enumerate() {
        let Some((seen_step, got)) = seen.steps.get(index) else {
            panic!("the script stopped before step {index} ({step})");
        };
        assert_eq!(seen_step, step, "step {index} of the script");
        assert_eq!(
            got, want,
            "step {index} of the script, {step}: your crate gave the left, the reference solution the right"
        );
    }
    assert_eq!(
        seen.steps.len(),
        expected.steps.len(),
        "the script has {} steps",
        expected.steps.len()
    );
}
