//! A reader-writer lock with a level.
//!
//! This module owns the property: **reading is locking**. Both
//! [`ReadLock::read`] and [`WriteLock::write`] take a token at a level
//! before the lock's and borrow it, exactly as [`Lock::lock`](crate::Lock)
//! does. A read lock is not exempt from the order: a reader waits for a
//! writer, and `std`'s lock may make a new reader wait behind a writer that
//! is itself waiting, so a reader that holds a later lock, or a second read
//! of the same lock, can close a cycle. The same level is never read under
//! itself.

// TODO(enforcement): your bounds will need `LockBefore`.
#[allow(unused_imports)]
use crate::relation::LockBefore;
use crate::token::LockToken;
use std::marker::PhantomData;
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// A [`std::sync::RwLock`] at lock level `L`, exactly as big as the lock it
/// wraps.
pub struct OrderedRwLock<L, T: ?Sized> {
    level: PhantomData<fn() -> L>,
    inner: RwLock<T>,
}

impl<L, T> OrderedRwLock<L, T> {
    /// A lock at level `L` holding `value`. `const`, so it can initialise a
    /// `static`.
    pub const fn new(value: T) -> Self {
        OrderedRwLock {
            level: PhantomData,
            inner: RwLock::new(value),
        }
    }

    /// The value, out of the lock.
    pub fn into_inner(self) -> T {
        self.inner
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
    }
}

/// Reading a lock with a token at level `H`.
#[diagnostic::on_unimplemented(
    message = "a `{H}` token cannot read this lock: its level is not declared after `{H}`",
    label = "this token is at `{H}`"
)]
pub trait ReadLock<H> {
    /// The lock's level.
    type Level;
    /// What the lock guards.
    type Value: ?Sized;

    /// Takes the lock for reading; other readers may hold it too. Returns
    /// the guard and a token at the lock's level, both borrowing `token`.
    fn read<'a>(
        &'a self,
        token: &'a mut LockToken<'_, H>,
    ) -> (RwLockReadGuard<'a, Self::Value>, LockToken<'a, Self::Level>);
}

/// Writing a lock with a token at level `H`.
#[diagnostic::on_unimplemented(
    message = "a `{H}` token cannot write this lock: its level is not declared after `{H}`",
    label = "this token is at `{H}`"
)]
pub trait WriteLock<H> {
    /// The lock's level.
    type Level;
    /// What the lock guards.
    type Value: ?Sized;

    /// Takes the lock for writing, alone. Returns the guard and a token at
    /// the lock's level, both borrowing `token`.
    fn write<'a>(
        &'a self,
        token: &'a mut LockToken<'_, H>,
    ) -> (
        RwLockWriteGuard<'a, Self::Value>,
        LockToken<'a, Self::Level>,
    );
}

// TODO(enforcement): this impl lets any token read the lock, whatever its
// level. Bound it with `H: LockBefore<L>` (in a `where` clause or inline),
// and keep `#[diagnostic::do_not_recommend]`, so that a refused read names
// the token's level and nothing else.
#[diagnostic::do_not_recommend]
impl<H, L, T: ?Sized> ReadLock<H> for OrderedRwLock<L, T> {
    type Level = L;
    type Value = T;

    fn read<'a>(
        &'a self,
        token: &'a mut LockToken<'_, H>,
    ) -> (RwLockReadGuard<'a, T>, LockToken<'a, L>) {
        // TODO(enforcement): take the lock for reading (a poisoned lock is
        // handed out all the same) and return the guard with a token at `L`.
        let _ = token;
        todo!("OrderedRwLock::read")
    }
}

// TODO(enforcement): this impl lets any token write the lock, whatever its
// level. Bound it with `H: LockBefore<L>` (in a `where` clause or inline),
// and keep `#[diagnostic::do_not_recommend]`, so that a refused write names
// the token's level and nothing else.
#[diagnostic::do_not_recommend]
impl<H, L, T: ?Sized> WriteLock<H> for OrderedRwLock<L, T> {
    type Level = L;
    type Value = T;

    fn write<'a>(
        &'a self,
        token: &'a mut LockToken<'_, H>,
    ) -> (RwLockWriteGuard<'a, T>, LockToken<'a, L>) {
        // TODO(enforcement): take the lock for writing (a poisoned lock is
        // handed out all the same) and return the guard with a token at `L`.
        let _ = token;
        todo!("OrderedRwLock::write")
    }
}
