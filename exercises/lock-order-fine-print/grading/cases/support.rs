//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the observing program and of the judge.
//!
//! Cases about locks must tell "waits for a lock" from "is slow", and must
//! do it the same way in every run. They never guess from elapsed time
//! when the machine can say. A case builds its locks with [`in_arena`], in
//! memory whose every access traps while [`trapped`] runs
//! (`xsafe_case::pages`): a thread that waits for such a lock cannot sleep
//! in the kernel (which cannot read the protected word) and spins through
//! the traps instead, so "the pair thread is waiting for the lower mutex"
//! is a fact the case reads (the thread made more than
//! `xsafe_case::pages::SPINNING` trapped accesses, the last on that
//! mutex's memory), not a delay it hopes is long enough. Where accesses
//! cannot be trapped (not Linux on x86_64), a case asks `/proc` whether
//! the thread sleeps on that memory, where `/proc` shows it (not in the
//! grader's sandbox). Work that must finish is given [`PROMPT`] to do so,
//! far more than an uncontended lock needs, and only ever to confirm a
//! deadlock that is certain, never to make one likely. Where neither can
//! be read, the observation says so, and the cases fall back on waiting.
//!
//! What a case saw of some work is plain data ([`Ended`]), which the judge
//! checks against values drawn from the seed.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use std::time::Duration;
use xsafe_case::Seed;

/// How some work ended, as the case saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ended<T> {
    /// It returned this.
    Returned(T),
    /// It panicked, with this message.
    Panicked(String),
    /// It was still waiting (for a lock) when the case stopped looking.
    Waiting,
}

impl<T> Ended<T> {
    /// The value it returned, if it did.
    pub fn returned(self) -> Option<T> {
        match self {
            Ended::Returned(value) => Some(value),
            Ended::Panicked(_) | Ended::Waiting => None,
        }
    }
}

/// The longest that work which cannot wait for anything (an uncontended
/// lock, a refusal) may take before a case counts it as waiting: far more
/// than it needs on a loaded machine, so a correct solution never reaches it.
pub const PROMPT: Duration = Duration::from_secs(3);

/// How long a case lets a thread settle before it looks, where neither
/// the traps nor `/proc` can tell it when the thread is waiting.
pub const SETTLE: Duration = Duration::from_millis(300);

/// `count` different values drawn from the seed, in `1..limit`.
pub fn values(seed: Seed, salt: u64, count: usize, limit: u64) -> Vec<u64> {
    let mut rng = xsafe_case::Rng::with_seed(seed.0 ^ salt);
    let mut drawn: Vec<u64> = Vec::with_capacity(count);
    while drawn.len() < count {
        let value = rng.u64(1..limit);
        if !drawn.contains(&value) {
            drawn.push(value);
        }
    }
    drawn
}

/// What the pair probe saw for one order of the arguments of
/// `lock_both`: see [`pair_probe`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairOrder {
    /// The indices named, `self` first: 0 is the lower address.
    pub named: (usize, usize),
    /// The mutex another thread held while `lock_both` ran: 0, the lower,
    /// or 1, the higher.
    pub held: usize,
    /// Whether the case saw the pair thread wait for the held mutex
    /// (`false` where waits cannot be seen: it then waited [`SETTLE`]).
    pub seen_waiting: bool,
    /// A third thread locking the other mutex meanwhile: its value, or
    /// `Waiting` if the pair thread held it.
    pub other_meanwhile: Ended<u64>,
    /// What `lock_both` gave the pair thread once the held mutex was
    /// free: the two values, in the order named.
    pub pair: Ended<(u64, u64)>,
}

/// The values the pair probe puts in its two mutexes: the lower address
/// first.
pub fn pair_values(seed: Seed) -> [u64; 2] {
    let drawn = values(seed, 0x9a1e, 2, 1 << 40);
    [drawn[0], drawn[1]]
}

/// The verdict on a pair probe: `Err` with the reason when `lock_both`
/// held the higher mutex while it waited for the lower one, waited for
/// the higher one without holding the lower, or gave the wrong values.
pub fn judge_pair_probe(seed: Seed, probe: &[PairOrder]) -> Result<(), String> {
    let values = pair_values(seed);
    if probe.len() != 4 {
        return Err(format!(
            "the pair probe recorded {} orders, not 4",
            probe.len()
        ));
    }
    for order in probe {
        let (first, second) = order.named;
        let call = if first == 1 {
            "lock_both(higher, lower)"
        } else {
            "lock_both(lower, higher)"
        };
        match (order.held, &order.other_meanwhile) {
            (0, Ended::Returned(value)) if *value == values[1] => {}
            (0, Ended::Returned(value)) => {
                return Err(format!(
                    "while {call} waited, the higher mutex was locked and held {value}, not {}",
                    values[1]
                ));
            }
            (0, Ended::Waiting) => {
                return Err(format!(
                    "{call} held the higher mutex while it waited for the lower one: two threads naming one pair in opposite orders can each hold one and wait for the other. Lock the mutex at the lower address first, whatever order they are named in"
                ));
            }
            // Only where the pair thread was seen waiting for the higher
            // mutex is it known to have had its chance at the lower one.
            (_, Ended::Waiting) => {}
            (_, Ended::Returned(_)) if !order.seen_waiting => {}
            (_, Ended::Returned(_)) => {
                return Err(format!(
                    "{call} waited for the higher mutex (another thread held it) without holding the lower one, which a third thread then locked: it did not lock the lower address first, or let it go to wait. With the lower mutex taken first and kept, two threads naming one pair in either order cannot each hold one and wait for the other"
                ));
            }
            (_, Ended::Panicked(message)) => {
                return Err(format!(
                    "locking the other mutex while {call} waited panicked: {message}"
                ));
            }
        }
        match &order.pair {
            Ended::Returned(pair) if *pair == (values[first], values[second]) => {}
            Ended::Returned(pair) => {
                return Err(format!(
                    "{call} gave {pair:?}; the guards come back in the order named: {:?}",
                    (values[first], values[second])
                ));
            }
            Ended::Panicked(message) => return Err(format!("{call} panicked: {message}")),
            Ended::Waiting => {
                return Err(format!("{call} did not return once both mutexes were free"));
            }
        }
    }
    Ok(())
}

#[cfg(not(xsafe_judge))]
pub use observe::*;

/// What only the observing program needs: threads, `/proc`, and the
/// learner's crate.
#[cfg(not(xsafe_judge))]
mod observe {
    use super::{Ended, PROMPT, PairOrder, SETTLE, pair_values};
    use lock_order_fine_print::{Lock, LockBoth, OrderedMutex, impl_lock_after, with_token};
    use std::any::Any;
    use std::ops::Range;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Arc, mpsc};
    use std::thread;
    use std::time::{Duration, Instant};

    /// How often a watched thread is looked at.
    const LOOK_EVERY: Duration = Duration::from_micros(50);

    /// The text of a panic's payload.
    pub fn panic_message(payload: &(dyn Any + Send)) -> String {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| {
                payload
                    .downcast_ref::<&str>()
                    .map(|text| (*text).to_owned())
            })
            .unwrap_or_else(|| "a panic without a message".to_owned())
    }

    /// Runs `work`, and says whether it returned or panicked.
    pub fn caught<R>(work: impl FnOnce() -> R) -> Ended<R> {
        match catch_unwind(AssertUnwindSafe(work)) {
            Ok(value) => Ended::Returned(value),
            Err(payload) => Ended::Panicked(panic_message(&*payload)),
        }
    }

    /// The memory a lock takes: a thread waiting for it sleeps (or
    /// spins) on an address in this range.
    pub fn memory_of<T>(lock: &T) -> Range<usize> {
        let start = std::ptr::from_ref(lock).addr();
        start..start + size_of::<T>()
    }

    /// `value`, shared, in the trapped arena: a thread that waits for a
    /// lock in it is seen waiting while [`trapped`] runs.
    pub fn in_arena<T>(value: T) -> Arc<T> {
        xsafe_case::pages::paged(|| Arc::new(value))
    }

    /// Whether accesses to the arena trap now (inside [`trapped`], where
    /// the machine can trap them).
    static TRAPPING: AtomicBool = AtomicBool::new(false);

    /// Runs `work` with every access to the arena trapped, where the
    /// machine can (Linux on x86_64): threads that wait for a lock made by
    /// [`in_arena`] spin through the traps, and [`Watched`] sees them.
    pub fn trapped<R>(work: impl FnOnce() -> R) -> R {
        use xsafe_case::pages;
        let trial = pages::trial_access();
        if !(trial.whole && trial.count == 1) {
            return work();
        }
        let (result, _) = pages::stop_at_access(usize::MAX, || {
            TRAPPING.store(true, Ordering::SeqCst);
            let result = work();
            TRAPPING.store(false, Ordering::SeqCst);
            result
        });
        result
    }

    /// A thread as `/proc` shows it: `/proc/PID/task/TID`.
    #[derive(Debug, Clone)]
    pub struct ProcThread(PathBuf);

    impl ProcThread {
        /// The calling thread, or `None` where `/proc` cannot show it.
        pub fn current() -> Option<ProcThread> {
            std::fs::read_link("/proc/thread-self")
                .ok()
                .map(|relative| ProcThread(PathBuf::from("/proc").join(relative)))
                .filter(|thread| thread.0.join("syscall").exists())
        }

        /// Whether the thread sleeps in the kernel on an address in
        /// `memory` (the first argument of the system call it is in, which
        /// for a futex wait is the lock's word).
        pub fn sleeps_on(&self, memory: &Range<usize>) -> bool {
            let Ok(text) = std::fs::read_to_string(self.0.join("syscall")) else {
                return false;
            };
            let mut fields = text.split_whitespace();
            let in_call = fields
                .next()
                .is_some_and(|number| number.parse::<u64>().is_ok());
            let address = fields
                .next()
                .and_then(|arg| arg.strip_prefix("0x"))
                .and_then(|hex| usize::from_str_radix(hex, 16).ok());
            in_call && address.is_some_and(|address| memory.contains(&address))
        }
    }

    /// Work running on a thread of its own, watched by the case.
    pub struct Watched<R> {
        thread: Option<ProcThread>,
        count: Option<xsafe_case::pages::CountReader>,
        done: mpsc::Receiver<Ended<R>>,
        ended: Option<Ended<R>>,
    }

    /// Starts `work` on a new thread.
    pub fn watch<R: Send + 'static>(work: impl FnOnce() -> R + Send + 'static) -> Watched<R> {
        let (place, placed) = mpsc::channel();
        let (finished, done) = mpsc::channel();
        thread::spawn(move || {
            let counter = xsafe_case::pages::counter();
            let _ = place.send((
                ProcThread::current(),
                counter.as_ref().map(xsafe_case::pages::Counter::reader),
            ));
            let ended = caught(work);
            drop(counter);
            let _ = finished.send(ended);
        });
        let (thread, count) = placed.recv().unwrap_or((None, None));
        Watched {
            thread,
            count,
            done,
            ended: None,
        }
    }

    impl<R> Watched<R> {
        /// Whether the case can see where the thread waits.
        pub fn visible(&self) -> bool {
            self.thread.is_some() || (self.count.is_some() && TRAPPING.load(Ordering::SeqCst))
        }

        /// Whether the thread waits on `memory`: it spins through the
        /// traps there, or sleeps there in the kernel.
        fn waits_on(&self, memory: &Range<usize>) -> bool {
            let spins = self.count.is_some_and(|count| {
                TRAPPING.load(Ordering::SeqCst)
                    && count.accesses() > xsafe_case::pages::SPINNING
                    && count
                        .last_address()
                        .is_some_and(|address| memory.contains(&address))
            });
            spins
                || self
                    .thread
                    .as_ref()
                    .is_some_and(|thread| thread.sleeps_on(memory))
        }

        fn poll(&mut self) -> bool {
            if self.ended.is_none() {
                if let Ok(ended) = self.done.try_recv() {
                    self.ended = Some(ended);
                }
            }
            self.ended.is_some()
        }

        /// Waits until the work has ended or waits on `memory`, for at
        /// most `bound`. Returns whether it was seen waiting there. Where
        /// waits cannot be seen, waits [`SETTLE`] and returns `false`.
        pub fn until_sleeping_on(&mut self, memory: &Range<usize>, bound: Duration) -> bool {
            if !self.visible() {
                let _ = self
                    .done
                    .recv_timeout(SETTLE)
                    .map(|ended| self.ended = Some(ended));
                return false;
            }
            let deadline = Instant::now() + bound;
            while Instant::now() < deadline {
                if self.poll() {
                    return false;
                }
                if self.waits_on(memory) {
                    return true;
                }
                thread::sleep(LOOK_EVERY);
            }
            false
        }

        /// How the work ended, or `Waiting` if it sleeps on `memory` (seen
        /// in `/proc`) or has not ended within `bound`.
        pub fn ended_or_sleeping_on(&mut self, memory: &Range<usize>, bound: Duration) -> Ended<R> {
            let deadline = Instant::now() + bound;
            while Instant::now() < deadline {
                if self.poll() {
                    break;
                }
                if self.waits_on(memory) {
                    return Ended::Waiting;
                }
                thread::sleep(LOOK_EVERY);
            }
            self.poll();
            self.ended.take().unwrap_or(Ended::Waiting)
        }

        /// How the work ended, or `Waiting` if it has not within `bound`.
        pub fn ended_within(&mut self, bound: Duration) -> Ended<R> {
            if self.ended.is_none() {
                if let Ok(ended) = self.done.recv_timeout(bound) {
                    self.ended = Some(ended);
                }
            }
            self.ended.take().unwrap_or(Ended::Waiting)
        }
    }

    /// The level of the pair probe's mutexes.
    enum Probed {}

    impl_lock_after!(Unlocked => Probed);

    /// Whether `lock_both` takes the mutex at the lower address first and
    /// keeps it, for both orders of its arguments, decided the same way in
    /// every run.
    ///
    /// Two mutexes live in one array, so the first has the lower address.
    /// A holder thread locks one of them. The pair thread calls
    /// `lock_both` and is watched until it waits on the held mutex (seen
    /// through the traps, or in `/proc`). When the lower one is held, a
    /// correct `lock_both` then holds nothing, and one that locked in
    /// another order holds the higher mutex, for good: a third thread that
    /// locks the higher mutex gets it at once, or waits. When the higher
    /// one is held, a correct `lock_both` holds the lower one while it
    /// waits: the third thread, locking the lower mutex, waits; it gets it
    /// at once from a `lock_both` that took the higher first, or that let
    /// the lower go to wait. Then the holder lets go and the pair thread
    /// finishes.
    pub fn pair_probe(seed: xsafe_case::Seed) -> Vec<PairOrder> {
        trapped(|| pair_probe_trapped(seed))
    }

    fn pair_probe_trapped(seed: xsafe_case::Seed) -> Vec<PairOrder> {
        let values = pair_values(seed);
        [(0, (1, 0)), (0, (0, 1)), (1, (1, 0)), (1, (0, 1))]
            .into_iter()
            .map(|(kept, (first, second))| {
                // Each mutex in an allocation (so on pages) of its own: a
                // thread spinning on one never opens the other's page, where
                // a thread waiting for the other could read its word and
                // sleep in the kernel, unseen. Index 0 is the lower address;
                // the values are written once the order is known.
                let mut mutexes = [
                    in_arena(OrderedMutex::<Probed, u64>::new(0)),
                    in_arena(OrderedMutex::<Probed, u64>::new(0)),
                ];
                mutexes.sort_by_key(|mutex| memory_of(&**mutex).start);
                with_token(|token| {
                    for (mutex, value) in mutexes.iter().zip(values) {
                        *mutex.lock(token).0 = value;
                    }
                });
                let memory = [memory_of(&*mutexes[0]), memory_of(&*mutexes[1])];
                let other = 1 - kept;
                let (held, holding) = mpsc::channel();
                let (release, released) = mpsc::channel::<()>();
                let holder = {
                    let mutexes = mutexes.clone();
                    thread::spawn(move || {
                        with_token(|token| {
                            let (_kept, _) = mutexes[kept].lock(token);
                            let _ = held.send(());
                            let _ = released.recv();
                        })
                    })
                };
                let holding = holding.recv_timeout(PROMPT).is_ok();
                let mut pair = {
                    let mutexes = mutexes.clone();
                    watch(move || {
                        with_token(|token| {
                            let (a, b, _) = mutexes[first]
                                .lock_both(&mutexes[second], token)
                                .expect("two different mutexes");
                            (*a, *b)
                        })
                    })
                };
                let seen_waiting = holding && pair.until_sleeping_on(&memory[kept], PROMPT);
                let mut meanwhile = {
                    let mutexes = mutexes.clone();
                    watch(move || with_token(|token| *mutexes[other].lock(token).0))
                };
                let other_meanwhile = meanwhile.ended_or_sleeping_on(&memory[other], PROMPT);
                let _ = release.send(());
                let _ = holder.join();
                let pair = pair.ended_within(PROMPT);
                let _ = meanwhile.ended_within(PROMPT);
                PairOrder {
                    named: (first, second),
                    held: kept,
                    seen_waiting,
                    other_meanwhile,
                    pair,
                }
            })
            .collect()
    }
}

/// The observing program's one global allocator, for all its cases (the
/// program's, so here and not in the case that needs it: a program built
/// without that case, a quick grade's or one without a case that does not
/// compile, has it too): the system's, except inside
/// `xsafe_case::pages::paged`, where every allocation gets pages of its
/// own in the arena whose accesses a case traps.
#[cfg(not(xsafe_judge))]
#[global_allocator]
static ALLOCATOR: xsafe_case::pages::Paged = xsafe_case::pages::Paged;
