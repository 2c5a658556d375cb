//! Consumption: a thread-spawning API that relies on [`Sendable`].
//!
//! `std::thread::spawn` accepts only `Send` closures and results, and knows
//! nothing of `Sendable`. The bridge between the two is to be one
//! `unsafe impl`, whose soundness rests on nothing but `Sendable`'s contract.
//!
//! TODO(consumption): define a private wrapper type that holds a value on its
//! way to another thread, implement `Send` for it exactly when the value is
//! `Sendable` (with a `// SAFETY:` comment that says why that is sound), and
//! write `spawn` and `Handle::join` with it. Careful: a closure that
//! destructures the wrapper (`let Wrapper(value) = wrapped;`) captures only
//! the field, a bare `T`; take the value out with a method instead.

use crate::Sendable;
use std::marker::PhantomData;

/// The work started by [`spawn`]: join it to wait for its result.
#[must_use = "dropping a Handle detaches the thread and loses its result"]
pub struct Handle<R> {
    // TODO(consumption): hold the `std::thread::JoinHandle` of the worker.
    _result: PhantomData<R>,
}

impl<R> Handle<R> {
    /// Waits for the work to finish on its thread and returns its result.
    ///
    /// If the work panicked, the panic resumes here, on the thread that
    /// joins.
    pub fn join(self) -> R {
        // TODO(consumption): join the worker and unwrap its result; resume
        // its panic (`std::panic::resume_unwind`) if it panicked.
        todo!("Handle::join")
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
    // TODO(consumption): wrap the payload, start `std::thread::spawn` with a
    // closure that unwraps it, calls `work` and wraps the result, and keep
    // the thread's `JoinHandle` in the `Handle`.
    let _ = (payload, work);
    todo!("spawn")
}
