//! The mutex that knows its level, as in the lock-order exercise.
//!
//! This module owns the property: **a thread only ever locks upward**.
//! [`Lock::lock`] takes a token at a level before the mutex's, borrows it
//! for as long as the guard and the new token live, and hands back a token
//! at the mutex's level, which only locks later levels. Locking is a trait
//! method, with the level bound on the impl: a refused lock is reported at
//! the caller's line, with the two levels, and nothing else.

use crate::relation::LockBefore;
use crate::token::LockToken;
use std::marker::PhantomData;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// A [`std::sync::Mutex`] at lock level `L`, exactly as big as the mutex it
/// wraps.
pub struct OrderedMutex<L, T: ?Sized> {
    level: PhantomData<fn() -> L>,
    inner: Mutex<T>,
}

impl<L, T> OrderedMutex<L, T> {
    /// A mutex at level `L` holding `value`. `const`, so it can initialise a
    /// `static`.
    pub const fn new(value: T) -> Self {
        OrderedMutex {
            level: PhantomData,
            inner: Mutex::new(value),
        }
    }

    /// The value, out of the mutex.
    pub fn into_inner(self) -> T {
        self.inner
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl<L, T: ?Sized> OrderedMutex<L, T> {
    /// Locks the inner mutex with no token and no check: for the locks of
    /// this crate, which check the order themselves.
    pub(crate) fn lock_unordered(&self) -> MutexGuard<'_, T> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The value, through a unique reference: no lock is needed.
    pub fn get_mut(&mut self) -> &mut T {
        self.inner.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Locking a mutex with a token at level `H`.
#[diagnostic::on_unimplemented(
    message = "a `{H}` token cannot lock this mutex: its level is not declared after `{H}`",
    label = "this token is at `{H}`"
)]
pub trait Lock<H> {
    /// The mutex's level: the level of the token that `lock` returns.
    type Level;
    /// What the mutex guards.
    type Value: ?Sized;

    /// Locks the mutex. Returns the guard and a token at the mutex's level;
    /// both borrow `token`, which is unusable until both are gone. A lock
    /// whose holder panicked is handed out all the same.
    fn lock<'a>(
        &'a self,
        token: &'a mut LockToken<'_, H>,
    ) -> (MutexGuard<'a, Self::Value>, LockToken<'a, Self::Level>);
}

#[diagnostic::do_not_recommend]
impl<H, L, T: ?Sized> Lock<H> for OrderedMutex<L, T>
where
    H: LockBefore<L>,
{
    type Level = L;
    type Value = T;

    fn lock<'a>(
        &'a self,
        token: &'a mut LockToken<'_, H>,
    ) -> (MutexGuard<'a, T>, LockToken<'a, L>) {
        let _ = token;
        (self.lock_unordered(), LockToken::at_level())
    }
}
