//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the observing program and of the judge.
//!
//! The bank's cases record what the bank returned as plain data
//! ([`Outcome`], [`AuditView`]), which the judge checks against the inputs
//! it drew from its seed.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};

/// What `Bank::transfer` returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// `Ok(())`.
    Made,
    /// `Err(TransferError::NoSuchAccount(account))`.
    NoSuchAccount(usize),
    /// `Err(TransferError::InsufficientFunds { account, balance })`.
    InsufficientFunds(usize, u64),
}

/// A transfer as `(from, to, amount)`.
pub type Move = (usize, usize, u64);

/// What `Bank::audit` returned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditView {
    pub balances: Vec<u64>,
    pub ledger: Vec<Move>,
    /// `(transfers, rejected, moved)`.
    pub counters: (u64, u64, u64),
}

#[cfg(not(xsafe_judge))]
pub use observe::*;

/// What only the observing program needs.
#[cfg(not(xsafe_judge))]
mod observe {
    use super::{AuditView, Outcome};
    use lock_order::bank::{Audit, TransferError};
    use std::sync::mpsc;
    use std::thread;
    use std::time::Duration;

    /// A transfer's result as data.
    pub fn outcome(result: Result<(), TransferError>) -> Outcome {
        match result {
            Ok(()) => Outcome::Made,
            Err(TransferError::NoSuchAccount(account)) => Outcome::NoSuchAccount(account),
            Err(TransferError::InsufficientFunds { account, balance }) => {
                Outcome::InsufficientFunds(account, balance)
            }
        }
    }

    /// An audit as data.
    pub fn view(audit: Audit) -> AuditView {
        AuditView {
            balances: audit.balances,
            ledger: audit
                .ledger
                .iter()
                .map(|transfer| (transfer.from, transfer.to, transfer.amount))
                .collect(),
            counters: (
                audit.counters.transfers,
                audit.counters.rejected,
                audit.counters.moved,
            ),
        }
    }

    /// Runs `work` on a thread of its own and returns what it returns, or
    /// panics if it has not finished after `seconds`: threads that wait for
    /// each other's locks end the observation with a message that says so,
    /// before the grader's own time limit stops it. A panic in `work`
    /// panics here with the same message.
    ///
    /// The limit is a bound, not a way to order threads: the work it guards
    /// takes milliseconds, and the cases that need a thread to wait for
    /// another use barriers.
    pub fn within<R: Send + 'static>(seconds: u64, work: impl FnOnce() -> R + Send + 'static) -> R {
        let (done, finished) = mpsc::channel();
        let worker = thread::spawn(move || {
            let result = work();
            let _ = done.send(());
            result
        });
        match finished.recv_timeout(Duration::from_secs(seconds)) {
            Ok(()) => worker.join().expect("the work finished"),
            Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
                Ok(_) => unreachable!("the work returned without reporting"),
                Err(panic) => std::panic::resume_unwind(panic),
            },
            Err(mpsc::RecvTimeoutError::Timeout) => {
                panic!(
                    "still running after {seconds} s: do some threads wait for each other's locks?"
                )
            }
        }
    }
}

/// Stopping one thread inside the learner's code at its first memory
/// allocation (`consumption/transfer_holds_the_balances`), through the
/// observing program's one global allocator, for all its cases: the
/// program's, so here and not in that case (a program built without it, a
/// quick grade's or one without a case that does not compile, has it too).
#[cfg(not(xsafe_judge))]
pub mod stop {
    use std::alloc::{GlobalAlloc, Layout};
    use std::cell::Cell;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{Condvar, Mutex};
    use xsafe_case::pages::Paged;

    thread_local! {
        static ARMED: Cell<bool> = const { Cell::new(false) };
    }
    static STOPPED: AtomicBool = AtomicBool::new(false);
    static GATE: Mutex<bool> = Mutex::new(false);
    static OPENED: Condvar = Condvar::new();

    /// `xsafe_case::pages::Paged` (the system allocator, except inside
    /// `pages::paged`), except that the first allocation of an armed
    /// thread stops that thread until [`release`]. The observing program
    /// has one global allocator for all its cases: this one, so that the
    /// cases that measure with `xsafe_case::pages` find `Paged` under it.
    struct Stopping;

    // SAFETY: every allocation is `Paged`'s; stopping a thread before it
    // allocates changes when, not how.
    unsafe impl GlobalAlloc for Stopping {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let armed = ARMED
                .try_with(|armed| armed.replace(false))
                .unwrap_or(false);
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

    /// Whether the armed thread has stopped.
    pub fn stopped() -> bool {
        STOPPED.load(Ordering::SeqCst)
    }

    /// Lets the stopped thread go on.
    pub fn release() {
        let mut open = GATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        *open = true;
        OPENED.notify_all();
    }
}
