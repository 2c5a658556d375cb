//! Proves consumption: a transfer keeps the balances locked until its
//! ledger entry is written, so no reader can see money moved that the
//! ledger does not record yet. Checked without relying on timing: the case
//! stops one transfer at a known point inside the bank (its first memory
//! allocation, which in a bank whose ledger starts empty is the ledger's
//! push) and looks at what a second transfer and a reader can do
//! meanwhile: through `/proc` where the program has one (a thread asleep in
//! a system call waits), otherwise by what they return within a second.
//! Either way the case fails only on proof (the reader returned a balance
//! the second transfer had already changed); a bank that holds its locks
//! as it should passes however slowly the machine runs.
//!
//! With the locks held as the chapter says, the stopped transfer holds the
//! balances, so the second transfer and the reader both wait. A transfer
//! that lets go of the balances before it takes the ledger lets the second
//! transfer move money and then wait for the ledger, and the reader then
//! sees that money gone with no entry for it. A bank whose transfer does
//! not allocate while it holds a lock (a ledger made with spare capacity)
//! cannot be stopped this way, and passes this case.
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// What the case could arrange, and what it saw.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Seen {
    /// The first transfer never allocated: nothing to stop.
    NotStopped,
    /// The second transfer did not wait while the first was stopped: the
    /// first held no lock it needed (it stopped before taking any).
    SecondDidNotWait,
    /// The second transfer waited; what the reader's `balance(2)` did
    /// meanwhile.
    SecondWaited(Reader),
    /// A transfer panicked.
    Panicked,
}

/// What `balance(2)` did while the second transfer waited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Reader {
    /// It waited too.
    Waited,
    /// It returned this.
    Returned(Option<u64>),
}

/// The starting balances, the first transfer's amount (0 to 1) and the
/// second's (2 to 3).
fn inputs(seed: Seed) -> ([u64; 4], u64, u64) {
    let mut rng = seed.rng();
    let start: [u64; 4] = std::array::from_fn(|_| rng.u64(1_000..1_000_000));
    let first = rng.u64(1..=start[0]);
    let second = rng.u64(1..=start[2]);
    (start, first, second)
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use lock_order::LockToken;
    use lock_order::bank::{Bank, Transfer};
    use std::sync::Arc;
    use std::thread;
    use stop::{Settled, Watched};

    let (start, first, second) = inputs(seed);
    let bank = Arc::new(Bank::new(start.to_vec()));
    let first_thread = {
        let bank = Arc::clone(&bank);
        thread::spawn(move || {
            let mut token = LockToken::new();
            // A refused transfer first: whatever the bank sets up on a
            // thread's first call is set up before the case arms the stop,
            // and the ledger (no entry yet) stays empty.
            let refused = Transfer {
                from: 0,
                to: 1,
                amount: start[0] + 1,
            };
            let _ = bank.transfer(&mut token, refused);
            stop::arm();
            let made = Transfer {
                from: 0,
                to: 1,
                amount: first,
            };
            let _ = bank.transfer(&mut token, made);
            stop::disarm();
        })
    };
    if !stop::wait_until_stopped_or(|| first_thread.is_finished()) {
        return match first_thread.join() {
            Ok(()) => Seen::NotStopped,
            Err(_) => Seen::Panicked,
        };
    }
    let second_thread = Watched::start({
        let bank = Arc::clone(&bank);
        move || {
            let made = Transfer {
                from: 2,
                to: 3,
                amount: second,
            };
            let _ = bank.transfer(&mut LockToken::new(), made);
        }
    });
    let seen = match second_thread.settle() {
        Settled::Finished | Settled::Busy => Seen::SecondDidNotWait,
        Settled::Waiting => {
            let reader = Watched::start({
                let bank = Arc::clone(&bank);
                move || bank.balance(&mut LockToken::new(), 2)
            });
            let saw = match reader.settle() {
                Settled::Waiting | Settled::Busy => Reader::Waited,
                Settled::Finished => Reader::Returned(reader.value().flatten()),
            };
            stop::release();
            let _ = reader.join();
            Seen::SecondWaited(saw)
        }
    };
    stop::release();
    let first_ended = first_thread.join();
    let second_ended = second_thread.join();
    if first_ended.is_err() || second_ended.is_err() {
        return Seen::Panicked;
    }
    seen
}

pub fn judge(seed: Seed, seen: Seen) {
    let (start, _, second) = inputs(seed);
    assert_ne!(seen, Seen::Panicked, "a transfer that the bank can make panicked");
    if let Seen::SecondWaited(Reader::Returned(Some(balance))) = seen {
        assert!(
            balance != start[2] - second,
            "while one transfer was inside the bank (writing its ledger entry), a second transfer took {second} out of account 2 and then waited, and `balance(2)` already showed {balance}: the second transfer let go of the balances before it had the ledger, so an audit at that moment would find money moved with no ledger entry. Keep the balances' guard until the ledger and the counters are written"
        );
    }
}

/// Stopping one thread inside the learner's code at its first memory
/// allocation, and watching threads through `/proc`.
#[cfg(not(xsafe_judge))]
mod stop {
    use std::alloc::{GlobalAlloc, Layout};
    use std::cell::Cell;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Condvar, Mutex, mpsc};
    use std::time::{Duration, Instant};
    use xsafe_case::pages::Paged;

    /// The longest the case waits for something that takes microseconds.
    const PROMPT: Duration = Duration::from_secs(3);

    /// Without `/proc`, how long work may run before the case takes it to
    /// be waiting: a transfer or a `balance` that holds no lock another
    /// thread holds ends in microseconds.
    const BLIND: Duration = Duration::from_secs(1);

    thread_local! {
        static ARMED: Cell<bool> = const { Cell::new(false) };
    }
    static STOPPED: AtomicBool = AtomicBool::new(false);
    static GATE: Mutex<bool> = Mutex::new(false);
    static OPENED: Condvar = Condvar::new();

    /// `xsafe_case::pages::Paged` (the system allocator, except inside
    /// `pages::paged`), except that the first allocation of an armed
    /// thread stops that thread until [`release`]. The observing program
    /// has one global allocator for all its cases: this one, so that
    /// `forced_schedules_are_linearizable` finds `Paged` under it.
    struct Stopping;

    // SAFETY: every allocation is `Paged`'s; stopping a thread before it
    // allocates changes when, not how.
    unsafe impl GlobalAlloc for Stopping {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let armed = ARMED.try_with(|armed| armed.replace(false)).unwrap_or(false);
            if armed {
                STOPPED.store(true, Ordering::SeqCst);
                let mut open = GATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                while !*open {
                    open = OPENED
                        .wait(open)
                        .unwrap_or_else(|poisoned| poisoned.into_inner());
                }
            }
            // SAFETY: the caller's layout, passed on.
            unsafe { Paged.alloc(layout) }
        }

        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            // SAFETY: allocated by `Paged` above, with this layout.
            unsafe { Paged.dealloc(ptr, layout) }
        }
    }

    #[global_allocator]
    static ALLOCATOR: Stopping = Stopping;

    /// The calling thread stops at its next allocation.
    pub fn arm() {
        ARMED.with(|armed| armed.set(true));
    }

    /// The calling thread no longer stops.
    pub fn disarm() {
        ARMED.with(|armed| armed.set(false));
    }

    /// Lets the stopped thread go on.
    pub fn release() {
        let mut open = GATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *open = true;
        OPENED.notify_all();
    }

    /// Waits until the armed thread has stopped (true) or `finished` says
    /// it ended without allocating (false).
    pub fn wait_until_stopped_or(finished: impl Fn() -> bool) -> bool {
        loop {
            if STOPPED.load(Ordering::SeqCst) {
                return true;
            }
            if finished() {
                return STOPPED.load(Ordering::SeqCst);
            }
            std::thread::yield_now();
        }
    }

    /// A thread as `/proc` shows it.
    #[derive(Debug, Clone)]
    pub struct Proc(PathBuf);

    impl Proc {
        pub fn current() -> Option<Proc> {
            std::fs::read_link("/proc/thread-self")
                .ok()
                .map(|relative| Proc(PathBuf::from("/proc").join(relative)))
                .filter(|thread| thread.0.join("syscall").exists())
        }

        /// Whether the thread sleeps in the kernel, inside a system call
        /// (a thread waiting for a `std` lock sleeps in `futex`).
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

    /// How watched work stood when the case looked.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub enum Settled {
        /// It finished.
        Finished,
        /// It sleeps in the kernel, waiting (for a lock).
        Waiting,
        /// It neither finished nor waited within [`PROMPT`].
        Busy,
    }

    /// Work on a thread of its own, watched through `/proc`.
    pub struct Watched<R> {
        proc: Option<Proc>,
        done: mpsc::Receiver<R>,
        handle: std::thread::JoinHandle<()>,
    }

    impl<R: Send + 'static> Watched<R> {
        pub fn start(work: impl FnOnce() -> R + Send + 'static) -> Watched<R> {
            let (place, placed) = mpsc::channel();
            let (finished, done) = mpsc::channel();
            let handle = std::thread::spawn(move || {
                let _ = place.send(Proc::current());
                let _ = finished.send(work());
            });
            let proc = placed.recv().unwrap_or(None);
            Watched { proc, done, handle }
        }

        /// Waits until the work finishes or sleeps waiting: a state that
        /// lasts, so the answer does not depend on when the case looks.
        pub fn settle(&self) -> Settled {
            let started = Instant::now();
            if self.proc.is_none() {
                // Nothing shows a thread's state: work that has not ended
                // within `BLIND` is taken to wait. A correct bank's waiting
                // work never ends here, so it is always taken to wait.
                while !self.handle.is_finished() {
                    if started.elapsed() > BLIND {
                        return Settled::Waiting;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                }
                return Settled::Finished;
            }
            loop {
                if self.handle.is_finished() {
                    return Settled::Finished;
                }
                if self.proc.as_ref().is_some_and(Proc::sleeps) {
                    // Asleep twice, a millisecond apart, and not finished.
                    std::thread::sleep(Duration::from_millis(1));
                    if self.proc.as_ref().is_some_and(Proc::sleeps) && !self.handle.is_finished() {
                        return Settled::Waiting;
                    }
                }
                if started.elapsed() > PROMPT {
                    return Settled::Busy;
                }
                std::thread::yield_now();
            }
        }

        /// The value, once the work has finished.
        pub fn value(&self) -> Option<R> {
            self.done.recv_timeout(PROMPT).ok()
        }

        pub fn join(self) -> std::thread::Result<()> {
            self.handle.join()
        }
    }
}
