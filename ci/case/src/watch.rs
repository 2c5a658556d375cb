//! Work on a thread of its own, and whether it waits, read from the
//! kernel instead of guessed from time.
//!
//! A case that stops one thread inside the learner's code (see
//! [`crate::pages`]) starts other work meanwhile and must know, for each,
//! whether it returned or waits for something the stopped thread holds.
//! Two signs of a wait last while the stopped thread stays stopped, so the
//! answer does not depend on how fast the machine runs:
//!
//! - during a finer session of [`crate::pages`], a thread waiting for a
//!   lock in the arena spins through the traps: more than [`SPINNING`]
//!   trapped accesses without returning is a wait (work that returns on
//!   its own makes a few dozen);
//! - where the system shows threads under `/proc` (Linux outside the
//!   grader's sandbox), a thread asleep in a system call, twice in a row
//!   and not finished, is waiting.
//!
//! Work that shows neither within [`BLIND`] (a wait for something outside
//! the arena, where `/proc` is hidden) is taken to wait: a case built on
//! this then fails only on what returned work shows, never on a wait.

use std::path::PathBuf;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Trapped accesses after which work that has not returned is taken to
/// spin, waiting (see [`crate::pages::counter`]).
pub const SPINNING: usize = crate::pages::SPINNING;

/// How long work that shows no sign of waiting may run before it is taken
/// to wait anyway: far above what work that holds no contested lock takes
/// (microseconds, or milliseconds through the traps).
pub const BLIND: Duration = Duration::from_secs(2);

/// A thread as `/proc` shows it.
#[derive(Debug, Clone)]
struct Proc(PathBuf);

impl Proc {
    /// The calling thread, where `/proc` shows it.
    fn current() -> Option<Proc> {
        std::fs::read_link("/proc/thread-self")
            .ok()
            .map(|relative| Proc(PathBuf::from("/proc").join(relative)))
            .filter(|thread| thread.0.join("syscall").exists())
    }

    /// Whether the thread sleeps in the kernel, inside a system call (a
    /// thread waiting for a `std` lock sleeps in `futex`).
    fn sleeps(&self) -> bool {
        let state = std::fs::read_to_string(self.0.join("stat")).unwrap_or_default();
        let sleeping = state
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state == "S");
        let in_call = std::fs::read_to_string(self.0.join("syscall"))
            .ok()
            .and_then(|text| text.split_whitespace().next().map(str::to_owned))
            .is_some_and(|number| number.parse::<u64>().is_ok());
        sleeping && in_call
    }
}

/// Waits until `ready()` holds, looking every few microseconds and
/// sleeping between looks: a wait that spun (`yield_now`) would use the
/// processor time the case is bounded by, the more so the busier the
/// machine, since the thread it waits for then runs less often.
pub fn wait_until(mut ready: impl FnMut() -> bool) {
    while !ready() {
        std::thread::sleep(LOOK_EVERY);
    }
}

/// How often [`wait_until`] and [`Watched::settle`] look.
const LOOK_EVERY: Duration = Duration::from_micros(20);

/// How watched work stood when the case looked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settled {
    /// It returned (or panicked).
    Finished,
    /// It spins through the traps or sleeps in the kernel, waiting (for a
    /// lock).
    Waiting,
    /// It neither finished nor showed a wait within [`BLIND`].
    Busy,
}

/// How watched work ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended<R> {
    /// It returned this.
    Returned(R),
    /// It panicked.
    Panicked,
    /// It had not returned when the case stopped waiting.
    Hung,
}

/// Work on a thread of its own, watched through `/proc`.
pub struct Watched<R> {
    proc: Option<Proc>,
    count: Option<crate::pages::CountReader>,
    done: mpsc::Receiver<R>,
    handle: std::thread::JoinHandle<()>,
}

impl<R: Send + 'static> Watched<R> {
    /// Starts `work` on a new thread, which counts its trapped accesses.
    pub fn start(work: impl FnOnce() -> R + Send + 'static) -> Watched<R> {
        let (place, placed) = mpsc::channel();
        let (finished, done) = mpsc::channel();
        let handle = std::thread::spawn(move || {
            let counter = crate::pages::counter();
            let _ = place.send((Proc::current(), counter.as_ref().map(|c| c.reader())));
            let answer = work();
            drop(counter);
            let _ = finished.send(answer);
        });
        let (proc, count) = placed.recv().unwrap_or((None, None));
        Watched {
            proc,
            count,
            done,
            handle,
        }
    }

    /// Whether the thread has ended.
    pub fn is_finished(&self) -> bool {
        self.handle.is_finished()
    }

    /// Waits until the work finishes or shows that it waits (spinning
    /// through the traps, or asleep in the kernel): states that last, so
    /// the answer does not depend on when the case looks.
    pub fn settle(&self) -> Settled {
        let started = Instant::now();
        loop {
            if self.handle.is_finished() {
                return Settled::Finished;
            }
            if self.count.is_some_and(|count| count.accesses() > SPINNING) {
                return Settled::Waiting;
            }
            if let Some(proc) = self.proc.as_ref()
                && proc.sleeps()
            {
                // Asleep twice, a millisecond apart, and not finished.
                std::thread::sleep(Duration::from_millis(1));
                if proc.sleeps() && !self.handle.is_finished() {
                    return Settled::Waiting;
                }
            }
            if started.elapsed() > BLIND {
                return Settled::Busy;
            }
            std::thread::sleep(LOOK_EVERY);
        }
    }

    /// How the work ended, waiting at most `bound` for it: a bound far
    /// above what the work takes, so [`Ended::Hung`] means it waits for
    /// something that never comes (a deadlock). A hung thread is left
    /// behind; the observing process ends soon after.
    pub fn end(self, bound: Duration) -> Ended<R> {
        match self.done.recv_timeout(bound) {
            Ok(value) => {
                let _ = self.handle.join();
                Ended::Returned(value)
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = self.handle.join();
                Ended::Panicked
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Ended::Hung,
        }
    }
}
