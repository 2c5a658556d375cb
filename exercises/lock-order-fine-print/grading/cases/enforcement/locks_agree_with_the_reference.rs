//! Proves enforcement: the ordered locks behave as the reference
//! solution's do, operation by operation. The same fixed script runs on the
//! learner's crate (observed) and on the reference solution (in the judge),
//! and the judge compares every step: `OrderedMutex` (`new`, `lock`,
//! `get_mut`, `into_inner`), `OrderedRwLock` (`new`, `read`, `write`,
//! `into_inner`), `lock_both` in both orders and on one lock twice (with
//! `SameLock` in `{:?}`, `{:#?}` and `Display`), `with_token`, and, when
//! the crate has them, `try_lock`, `try_read` and `try_write` (each must
//! refuse at once a lock that another thread holds in a way that excludes
//! it, grant a read beside a read, and hand out a free lock, poisoned or
//! not, as `lock`, `read` and `write` do), `Default` and `From` of both
//! locks, and `Debug` of the locks and the token in `{:?}` and `{:#?}`,
//! held and not held (formatting must never wait for a lock). A callback
//! supplied by the script panics at each point of a critical section in
//! turn (after each lock and after each write, under a mutex, a write lock
//! or a pair): the state afterwards, and whether every lock is handed out
//! again, must match the reference's. The strings come from the judge's
//! seed, from a small set so that values repeat; the script's shape is
//! fixed. Waits are bounded: the script runs on a thread of its own, and a
//! step that has not come after a few seconds ends the observation (a lock
//! that waits for itself), and a `try_*` or a format that waits is given up
//! and reported as `Waited`.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// Seconds a `try_*` or a format may take before it counts as waiting:
/// they take microseconds, and a wait here is certain, not a matter of
/// timing (the lock is held by the script's thread until the time is up).
const PATIENCE: u64 = 3;

/// The points of a critical section where the callback may panic; `POINTS`
/// itself is a run where it does not.
const POINTS: usize = 4;

/// The strings the script writes: a small set, so values repeat.
fn values(seed: Seed) -> Vec<String> {
    let mut rng = seed.rng();
    let words = ["ant", "bee", "", "cat", "ant bee"];
    (0..24)
        .map(|_| words[rng.usize(..words.len())].repeat(rng.usize(1..3)))
        .collect()
}

/// What a `try_*` (or its stand-in, where the crate has none) gave.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Tried {
    /// The lock, and what it held.
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
}

/// One thing the script saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Entry {
    /// `(step, what was seen)`, compared with the reference's.
    Step(String, String),
    /// Formatting, which the reference cannot do: `(step, outcome)`.
    Format(String, Formatted),
    /// The script's thread sent nothing more for `2 * PATIENCE` seconds.
    Stalled,
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    entries: Vec<Entry>,
}

/// The script, written once for both crates: `$krate` is
/// `lock_order_fine_print` in the observing program and `xsafe_reference`
/// in the judge. A `try_*`, `Default` or `From` the crate lacks is stood in
/// for by what the reference's `lock`, `read`, `write` and `new` do, so the
/// state is the same either way and the steps compare one for one.
macro_rules! script {
    ($krate:ident) => {
        use super::{Entry, Formatted, PATIENCE, POINTS, Tried};
        use $krate::{
            Lock, LockBoth, LockToken, OrderedMutex, OrderedRwLock, ReadLock, WriteLock,
            impl_lock_after, with_token,
        };
        use std::cell::Cell;
        use std::fmt::Debug;
        use std::marker::PhantomData;
        use std::ops::Deref;
        use std::panic::{self, AssertUnwindSafe};
        use std::sync::atomic::{AtomicBool, Ordering};
        use std::sync::{Arc, MutexGuard, RwLockReadGuard, RwLockWriteGuard, mpsc};
        use std::thread;
        use std::time::Duration;

        pub enum Outer {}
        pub enum Inner {}
        impl_lock_after!(Unlocked => Outer);
        impl_lock_after!(Outer => Inner);

        pub type Mutex = OrderedMutex<Outer, Vec<String>>;
        pub type RwLock = OrderedRwLock<Inner, Vec<String>>;

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
        pub trait NoTryReadWrite {
            fn try_read<'a, H>(&'a self, _token: &'a mut LockToken<'_, H>) -> Absent {
                Absent
            }
            fn try_write<'a, H>(&'a self, _token: &'a mut LockToken<'_, H>) -> Absent {
                Absent
            }
        }
        impl<L, T> NoTryReadWrite for OrderedRwLock<L, T> {}

        /// A `try_*`'s answer: the guard, `Some(None)` for a refusal,
        /// `None` where the crate has no such method.
        pub trait Answer<G> {
            fn answer(self) -> Option<Option<G>>;
        }
        impl<G, L> Answer<G> for Option<(G, LockToken<'_, L>)> {
            fn answer(self) -> Option<Option<G>> {
                Some(self.map(|(guard, _)| guard))
            }
        }
        impl<G> Answer<G> for Absent {
            fn answer(self) -> Option<Option<G>> {
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

        /// Where the script's entries go.
        pub struct Log(pub mpsc::Sender<Entry>);

        impl Log {
            fn see(&self, step: impl Into<String>, seen: impl Debug) {
                let _ = self.0.send(Entry::Step(step.into(), format!("{seen:?}")));
            }
        }

        /// Set once a wait was given up: later waits are not tried, so
        /// that a solution that waits fails in seconds.
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

        /// The three ways to try a lock.
        #[derive(Clone, Copy)]
        pub enum Try {
            Lock,
            Read,
            Write,
        }

        /// Tries `how` on this thread with `token`; `None` where the crate
        /// has no such method.
        fn attempt<H>(
            mutex: Option<&Mutex>,
            rwlock: Option<&RwLock>,
            how: Try,
            token: &mut LockToken<'_, H>,
            push: Option<&str>,
        ) -> Option<Tried>
        where
            H: $krate::LockBefore<Outer> + $krate::LockBefore<Inner>,
        {
            fn look<G: Deref<Target = Vec<String>>>(answer: &Option<Option<G>>) -> Option<Option<Vec<String>>> {
                answer
                    .as_ref()
                    .map(|guard| guard.as_ref().map(|guard| (**guard).clone()))
            }
            let seen = match (how, mutex, rwlock) {
                (Try::Lock, Some(mutex), _) => {
                    let mut answer: Option<Option<MutexGuard<'_, Vec<String>>>> =
                        mutex.try_lock(token).answer();
                    let seen = look(&answer);
                    if let (Some(Some(guard)), Some(push)) = (answer.as_mut(), push) {
                        guard.push(push.to_owned());
                    }
                    seen
                }
                (Try::Read, _, Some(rwlock)) => {
                    let answer: Option<Option<RwLockReadGuard<'_, Vec<String>>>> =
                        rwlock.try_read(token).answer();
                    look(&answer)
                }
                (Try::Write, _, Some(rwlock)) => {
                    let mut answer: Option<Option<RwLockWriteGuard<'_, Vec<String>>>> =
                        rwlock.try_write(token).answer();
                    let seen = look(&answer);
                    if let (Some(Some(guard)), Some(push)) = (answer.as_mut(), push) {
                        guard.push(push.to_owned());
                    }
                    seen
                }
                _ => None,
            };
            seen.map(|seen| seen.map_or(Tried::Refused, Tried::Got))
        }

        /// Tries a free lock on this thread, or does what the stand-in does
        /// (`lock`, `read` or `write`, which a free lock grants).
        fn try_free(mutex: Option<&Mutex>, rwlock: Option<&RwLock>, how: Try, push: &str) -> Tried {
            with_token(|token| {
                if let Some(tried) = attempt(mutex, rwlock, how, token, Some(push)) {
                    return tried;
                }
                match (how, mutex, rwlock) {
                    (Try::Lock, Some(mutex), _) => {
                        let (mut guard, _) = mutex.lock(token);
                        let seen = guard.clone();
                        guard.push(push.to_owned());
                        Tried::Got(seen)
                    }
                    (Try::Read, _, Some(rwlock)) => Tried::Got(rwlock.read(token).0.clone()),
                    (Try::Write, _, Some(rwlock)) => {
                        let (mut guard, _) = rwlock.write(token);
                        let seen = guard.clone();
                        guard.push(push.to_owned());
                        Tried::Got(seen)
                    }
                    _ => unreachable!("the script names the lock it tries"),
                }
            })
        }

        /// Tries a lock from another thread while this one holds it as
        /// `held` says; the stand-in answers what std's lock would: a read
        /// beside a read is granted, anything else refused.
        fn try_held(mutex: Option<&Arc<Mutex>>, rwlock: Option<&Arc<RwLock>>, how: Try, read_held: bool) -> Tried {
            let mutex = mutex.cloned();
            let rwlock = rwlock.cloned();
            patiently(move || {
                with_token(|token| {
                    match attempt(mutex.as_deref(), rwlock.as_deref(), how, token, None) {
                        Some(tried) => tried,
                        None => match (how, &rwlock) {
                            (Try::Read, Some(rwlock)) if read_held => {
                                Tried::Got(rwlock.read(token).0.clone())
                            }
                            _ => Tried::Refused,
                        },
                    }
                })
            })
            .unwrap_or(Tried::Waited)
        }

        /// Formats `value` in both modes, on another thread, while this
        /// thread holds what it holds.
        fn format<T: Send + Sync + 'static>(
            log: &Log,
            step: &str,
            value: &Arc<T>,
            format: Option<fn(&T, bool) -> String>,
        ) {
            for pretty in [false, true] {
                let mode = if pretty { "{:#?}" } else { "{:?}" };
                let outcome = match format {
                    None => Formatted::Absent,
                    Some(format) => {
                        let value = Arc::clone(value);
                        patiently(move || format(&value, pretty))
                            .map_or(Formatted::Waited, |_| Formatted::Returned)
                    }
                };
                let _ = log.0.send(Entry::Format(format!("{step}, {mode}"), outcome));
            }
        }

        /// Formats a token in both modes, on this thread: a token has no
        /// lock to wait for.
        fn format_here<T>(log: &Log, step: &str, value: &T, format: Option<fn(&T, bool) -> String>) {
            for pretty in [false, true] {
                let mode = if pretty { "{:#?}" } else { "{:?}" };
                let outcome = match format {
                    None => Formatted::Absent,
                    Some(format) => {
                        format(value, pretty);
                        Formatted::Returned
                    }
                };
                let _ = log.0.send(Entry::Format(format!("{step}, {mode}"), outcome));
            }
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

        pub fn run(values: &[String], log: &Log) {
            let word = |i: usize| values[i % values.len()].clone();
            let mutex_debug = (&probe::<Mutex>()).formatter();
            let rwlock_debug = (&probe::<RwLock>()).formatter();

            // Construction: new, Default, From.
            let first = Arc::new(Mutex::new(vec![word(0), word(1)]));
            let second = Arc::new(Mutex::new(vec![word(2)]));
            let rwlock = Arc::new(RwLock::new(vec![word(3)]));
            let made = (&probe::<Mutex>()).made_by_default().unwrap_or_else(|| Mutex::new(Vec::new()));
            log.see("OrderedMutex::default, then try_lock", try_free(Some(&made), None, Try::Lock, &word(20)));
            log.see("OrderedMutex::default, then into_inner", made.into_inner());
            let made = (&probe::<RwLock>()).made_by_default().unwrap_or_else(|| RwLock::new(Vec::new()));
            log.see("OrderedRwLock::default, then try_write", try_free(None, Some(&made), Try::Write, &word(21)));
            log.see("OrderedRwLock::default, then into_inner", made.into_inner());
            let made = (&probe::<Mutex>())
                .made_from(vec![word(4), word(4)])
                .unwrap_or_else(|| Mutex::new(vec![word(4), word(4)]));
            log.see("OrderedMutex::from, then try_lock", try_free(Some(&made), None, Try::Lock, &word(5)));
            log.see("OrderedMutex::from, then into_inner", made.into_inner());
            let made = (&probe::<RwLock>())
                .made_from(vec![word(6)])
                .unwrap_or_else(|| RwLock::new(vec![word(6)]));
            log.see("OrderedRwLock::from, then try_write", try_free(None, Some(&made), Try::Write, &word(7)));
            log.see("OrderedRwLock::from, then into_inner", made.into_inner());

            format(log, "a mutex not held", &first, mutex_debug);
            format(log, "a read-write lock not held", &rwlock, rwlock_debug);

            with_token(|token| {
                format_here(log, "the root token", &*token, (&probe::<LockToken<'_, $krate::Unlocked>>()).formatter());
                let (mut held, mut at_outer) = first.lock(token);
                log.see("lock the first mutex", held.clone());
                held.push(word(8));
                log.see("try_lock the first mutex while held", try_held(Some(&first), None, Try::Lock, false));
                format(log, "a mutex held", &first, mutex_debug);
                format_here(log, "a token at Outer", &at_outer, (&probe::<LockToken<'_, Outer>>()).formatter());
                {
                    let (read, _) = rwlock.read(&mut at_outer);
                    log.see("read the read-write lock under the mutex", read.clone());
                    log.see("try_read while read", try_held(None, Some(&rwlock), Try::Read, true));
                    log.see("try_write while read", try_held(None, Some(&rwlock), Try::Write, true));
                    format(log, "a read-write lock read", &rwlock, rwlock_debug);
                }
                {
                    let (mut written, _) = rwlock.write(&mut at_outer);
                    log.see("write the read-write lock under the mutex", written.clone());
                    written.push(held.last().cloned().unwrap_or_default());
                    log.see("try_read while written", try_held(None, Some(&rwlock), Try::Read, false));
                    log.see("try_write while written", try_held(None, Some(&rwlock), Try::Write, false));
                    format(log, "a read-write lock written", &rwlock, rwlock_debug);
                }
                let (read, _) = rwlock.read(&mut at_outer);
                log.see("read again under the mutex", read.clone());
            });
            log.see("try_lock the first mutex, free", try_free(Some(&first), None, Try::Lock, &word(9)));
            log.see("try_read, free", try_free(None, Some(&rwlock), Try::Read, ""));
            log.see("try_write, free", try_free(None, Some(&rwlock), Try::Write, &word(10)));

            // Two locks of one level, in both orders, and one lock twice.
            with_token(|token| {
                match first.lock_both(&second, token) {
                    Ok((mut one, mut two, _)) => {
                        log.see("lock_both(first, second)", (one.clone(), two.clone()));
                        one.push(word(11));
                        two.push(word(12));
                        log.see("try_lock the second mutex while the pair is held", try_held(Some(&second), None, Try::Lock, false));
                    }
                    Err(same) => log.see("lock_both(first, second)", format!("Err({same:?})")),
                }
                match second.lock_both(&first, token) {
                    Ok((two, one, _)) => log.see("lock_both(second, first)", (two.clone(), one.clone())),
                    Err(same) => log.see("lock_both(second, first)", format!("Err({same:?})")),
                }
                match first.lock_both(&first, token) {
                    Ok((one, _, _)) => log.see("lock_both(first, first)", format!("Ok({:?})", *one)),
                    Err(same) => {
                        let copy = same;
                        log.see(
                            "lock_both(first, first)",
                            format!("Err: {same:?} | {same:#?} | {same} | copy equal: {}", copy == same),
                        );
                    }
                }
            });

            // A panic at each point of a critical section: under a mutex
            // and a write lock, then under a pair.
            let quiet = panic::take_hook();
            panic::set_hook(Box::new(|_| {}));
            for point in 0..=POINTS {
                CALLS.with(|calls| calls.set(0));
                let panicked = panic::catch_unwind(AssertUnwindSafe(|| {
                    with_token(|token| {
                        let (mut held, mut at_outer) = first.lock(token);
                        callback(point);
                        held.push(word(13 + point));
                        callback(point);
                        let (mut written, _) = rwlock.write(&mut at_outer);
                        callback(point);
                        written.push(word(14 + point));
                        callback(point);
                    })
                }))
                .is_err();
                log.see(format!("panic at point {point} under a mutex and a write lock: panicked"), panicked);
                CALLS.with(|calls| calls.set(0));
                let panicked = panic::catch_unwind(AssertUnwindSafe(|| {
                    with_token(|token| {
                        if let Ok((mut one, mut two, _)) = first.lock_both(&second, token) {
                            callback(point);
                            one.push(word(15 + point));
                            callback(point);
                            two.retain(|value| !value.is_empty());
                            callback(point);
                            two.push(word(16 + point));
                            callback(point);
                        }
                    })
                }))
                .is_err();
                log.see(format!("panic at point {point} under a pair: panicked"), panicked);
                let after = |what: &str| format!("after the panics at point {point}: {what}");
                log.see(after("try_lock the first mutex"), try_free(Some(&first), None, Try::Lock, &word(17 + point)));
                log.see(after("try_read"), try_free(None, Some(&rwlock), Try::Read, ""));
                log.see(after("try_write"), try_free(None, Some(&rwlock), Try::Write, &word(18 + point)));
                with_token(|token| {
                    let (held, mut at_outer) = first.lock(token);
                    log.see(after("lock the first mutex"), held.clone());
                    let (read, _) = rwlock.read(&mut at_outer);
                    log.see(after("read under it"), read.clone());
                });
                with_token(|token| match second.lock_both(&first, token) {
                    Ok((two, one, _)) => log.see(after("lock_both(second, first)"), (two.clone(), one.clone())),
                    Err(same) => log.see(after("lock_both(second, first)"), format!("Err({same:?})")),
                });
            }
            panic::set_hook(quiet);
            format(log, "a mutex after the panics", &first, mutex_debug);
            format(log, "a read-write lock after the panics", &rwlock, rwlock_debug);

            // get_mut and into_inner, after the panics. (A thread that
            // still waits for a lock shares them.)
            let (Some(mut first), Some(second), Some(rwlock)) =
                (Arc::into_inner(first), Arc::into_inner(second), Arc::into_inner(rwlock))
            else {
                log.see("into_inner", "a thread that waited for a lock still shares the locks");
                return;
            };
            first.get_mut().push(word(19));
            log.see("get_mut the first mutex", first.get_mut().clone());
            log.see("into_inner the first mutex", first.into_inner());
            log.see("into_inner the second mutex", second.into_inner());
            log.see("into_inner the read-write lock", rwlock.into_inner());
        }
    };
}

#[cfg(not(xsafe_judge))]
mod learner {
    script!(lock_order_fine_print);
}

#[cfg(xsafe_judge)]
mod reference {
    script!(xsafe_reference);
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    let values = values(seed);
    let (sink, entries) = mpsc::channel();
    let script = thread::spawn(move || learner::run(&values, &learner::Log(sink)));
    let mut seen = Vec::new();
    loop {
        match entries.recv_timeout(Duration::from_secs(2 * PATIENCE)) {
            Ok(entry) => seen.push(entry),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                if let Err(panic) = script.join() {
                    std::panic::resume_unwind(panic);
                }
                break;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                seen.push(Entry::Stalled);
                break;
            }
        }
    }
    Seen { entries: seen }
}

#[cfg(xsafe_judge)]
pub fn judge(seed: Seed, seen: Seen) {
    let (sink, entries) = std::sync::mpsc::channel();
    reference::run(&values(seed), &reference::Log(sink));
    let mut expected = Vec::new();
    let mut formats = Vec::new();
    for entry in entries.try_iter() {
        match entry {
            Entry::Step(step, what) => expected.push((step, what)),
            Entry::Format(..) | Entry::Stalled => {}
        }
    }
    let mut steps = Vec::new();
    for entry in seen.entries {
        match entry {
            Entry::Step(step, what) => steps.push((step, what)),
            Entry::Format(step, outcome) => formats.push((step, outcome)),
            Entry::Stalled => {
                let next = expected
                    .get(steps.len())
                    .map_or("the end of the script", |(step, _)| step.as_str());
                panic!(
                    "the script waited for {} s before step {} ({next}): a lock that waits for a lock its own thread holds? (the steps before it matched the reference)",
                    2 * PATIENCE,
                    steps.len()
                );
            }
        }
        if let Some((step, Formatted::Waited)) = formats.last() {
            panic!(
                "formatting {step} waited for {PATIENCE} s: Debug must not wait for a lock (it would be a lock outside the order, without a token); show it as locked instead, as std's locks do"
            );
        }
        if let (Some((step, got)), Some(index)) = (steps.last(), steps.len().checked_sub(1)) {
            let Some((want_step, want)) = expected.get(index) else {
                panic!("the script has {} steps, yours more", expected.len());
            };
            assert_eq!(step, want_step, "step {index} of the script");
            assert_eq!(
                got, want,
                "step {index} of the script, {step}: your crate gave the left, the reference solution the right"
            );
        }
    }
    assert_eq!(
        steps.len(),
        expected.len(),
        "the script has {} steps",
        expected.len()
    );
}
