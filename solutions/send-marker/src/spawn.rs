//! Consumption: a thread-spawning API that relies on [`Sendable`].
//!
//! `std::thread::spawn` accepts only `Send` closures and results, and knows
//! nothing of `Sendable`. The bridge between the two is one `unsafe impl`,
//! below, whose soundness rests on nothing but `Sendable`'s contract. Every
//! other line here is safe code, and the bounds of [`spawn`] are what make
//! the bridge's condition hold.

use crate::Sendable;
use std::thread::{self, JoinHandle};

/// A value on its way to another thread, or back from it.
struct CrossesThreads<T>(T);

// SAFETY: `Send` means "a value of this type may move to another thread".
// `Sendable`'s contract promises exactly that of `T`, and a
// `CrossesThreads<T>` is nothing but a `T`. So this impl states, in std's
// terms, what every `Sendable` impl already promised; it is sound for as long
// as those impls keep the contract, and for no other reason.
unsafe impl<T: Sendable> Send for CrossesThreads<T> {}

impl<T> CrossesThreads<T> {
    /// The value inside. A method on purpose: a closure that wrote
    /// `let CrossesThreads(value) = wrapped;` would capture only the field,
    /// a bare `T`, and `thread::spawn` would then ask for `T: Send`.
    fn into_inner(self) -> T {
        self.0
    }
}

/// The work started by [`spawn`]: join it to wait for its result.
#[must_use = "dropping a Handle detaches the thread and loses its result"]
pub struct Handle<R> {
    worker: JoinHandle<CrossesThreads<R>>,
}

impl<R> Handle<R> {
    /// Waits for the work to finish on its thread and returns its result.
    ///
    /// If the work panicked, the panic resumes here, on the thread that
    /// joins.
    pub fn join(self) -> R {
        match self.worker.join() {
            Ok(result) => result.into_inner(),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    }
}

/// Runs `work(payload)` on a new thread and returns at once, with a
/// [`Handle`] that gives back the result.
///
/// The payload moves to the new thread, and the result moves back, so both
/// must be [`Sendable`]. `work` is a function pointer, not a closure: it
/// captures nothing, so the payload is the only data that travels. (A closure
/// type is never `Sendable`; see the book for why std's `Send` can cover
/// closures and this trait cannot.)
pub fn spawn<T, R>(payload: T, work: fn(T) -> R) -> Handle<R>
where
    T: Sendable + 'static,
    R: Sendable + 'static,
{
    // `T: Sendable` makes the wrapped payload `Send`; `R: Sendable` does the
    // same for the wrapped result. `work` is a function pointer, which std
    // already knows to be `Send`.
    let payload = CrossesThreads(payload);
    let worker = thread::spawn(move || CrossesThreads(work(payload.into_inner())));
    Handle { worker }
}
