//! The mutex that knows its level, and the token that proves which locks a
//! thread may take next.
//!
//! This module owns the second property: **a thread only ever locks upward**.
//! The only way to get a token above [`Unlocked`] is [`OrderedMutex::lock`],
//! which borrows the caller's token mutably for as long as the guard and
//! the new token live. While they do, the old token cannot be used, and the
//! new one only locks levels after this mutex's.

use crate::relation::{LockBefore, Unlocked};
use std::marker::PhantomData;
use std::sync::{Mutex, MutexGuard, PoisonError};

/// Proof that the thread holding it may lock any level after `L`.
///
/// A token is never `Clone` or `Copy`: a copy of an old token would lock a
/// low level while a higher one is held. It takes no memory: both fields
/// are zero-sized, so passing it costs nothing at run time.
///
/// The lifetime `'a` is the borrow of the token it was made from (`'static`
/// for the root), so the old token stays borrowed while this one lives.
pub struct LockToken<'a, L> {
    level: PhantomData<fn() -> L>,
    parent: PhantomData<&'a mut ()>,
}

// TODO(enforcement): a copy of a token can lock a low level while the
// original holds a high one. Remove these two impls.
impl<L> Clone for LockToken<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for LockToken<'_, L> {}

impl LockToken<'static, Unlocked> {
    /// The token a thread starts with: it holds no lock, so it may lock
    /// any level.
    ///
    /// Make one per thread, at the thread's entry point. Nothing stops a
    /// second call in the same thread, and a second root token could lock a
    /// low level while the first holds a high one: a hole that a later
    /// chapter closes.
    #[allow(clippy::new_without_default)]
    pub fn new() -> Self {
        LockToken {
            level: PhantomData,
            parent: PhantomData,
        }
    }
}

/// A [`std::sync::Mutex`] at lock level `L`.
///
/// It can only be locked with a token at a level before `L`, and locking it
/// hands back a token at `L`. It is exactly as big as the `std` mutex it
/// wraps: the level is a type, not a value.
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

    /// The value, out of the mutex. Takes the mutex by value, so no lock is
    /// needed.
    pub fn into_inner(self) -> T {
        self.inner
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

impl<L, T: ?Sized> OrderedMutex<L, T> {
    /// Locks the mutex with a token at a level `H` before `L`.
    ///
    /// Returns the guard and a token at `L`. Both borrow `token`, so the
    /// token the caller had is unusable until both are gone; the new token
    /// only locks levels after `L`. A lock whose holder panicked is handed
    /// out all the same (as [`PoisonError::into_inner`] does).
    pub fn lock<'a, H>(
        &'a self,
        // TODO(enforcement): this signature lets go of `token` as soon as
        // `lock` returns, and the new token borrows nothing. Borrow `token`
        // mutably for `'a`, and return a `LockToken<'a, L>`.
        token: &LockToken<'_, H>,
    ) -> (MutexGuard<'a, T>, LockToken<'static, L>)
    where
        H: LockBefore<L>,
    {
        // TODO(enforcement): lock `inner` (a poisoned lock is handed out all
        // the same) and return the guard with a token at level `L`.
        let _ = token;
        todo!("OrderedMutex::lock")
    }

    /// The value, through a unique reference to the mutex: no other thread
    /// can hold the lock, so no token is needed.
    pub fn get_mut(&mut self) -> &mut T {
        self.inner.get_mut().unwrap_or_else(PoisonError::into_inner)
    }
}
