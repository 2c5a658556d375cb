//! The token that proves which levels a thread may lock next, and the one
//! place where a thread gets its first token.
//!
//! This module owns the property: **a thread has at most one token in use
//! at a time, and it never leaves the thread**. The only token that is not
//! made by a lock is the root token, at [`Unlocked`], and it comes from one
//! of two entry points:
//!
//! * [`with_token`] lends it to a closure, for the closure's duration only;
//!   a nested call on the same thread panics instead of handing out a
//!   second root token.
//! * [`LockToken::new_unchecked`] is `unsafe`: its caller promises what
//!   [`with_token`] checks.
//!
//! A token is neither `Clone` nor `Copy` (a spare copy would lock a low
//! level while the original holds a high one), and neither `Send` nor `Sync`
//! (the order is per thread: a token moved to another thread would let that
//! thread lock as if it held nothing, and the locks held by this thread
//! would no longer be accounted for).

use crate::relation::Unlocked;
use std::cell::Cell;
use std::marker::PhantomData;

/// Proof that the thread holding it may lock any level after `L`.
///
/// The lifetime `'a` is the borrow of the token it was made from, so the old
/// token stays unusable while this one lives. It takes no memory.
pub struct LockToken<'a, L> {
    level: PhantomData<fn() -> L>,
    parent: PhantomData<&'a mut ()>,
    // TODO(enforcement): nothing here keeps the token on its thread: every
    // field is `Send`, so the token is too. Add a zero-sized field that is
    // neither `Send` nor `Sync`.
}

// TODO(enforcement): a copy of a token can lock a low level while the
// original holds a high one. Remove these two impls.
impl<L> Clone for LockToken<'_, L> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<L> Copy for LockToken<'_, L> {}

impl<L> LockToken<'_, L> {
    /// A token at level `L` borrowing for `'b`. Only the locks of this crate
    /// call it, with the token they were given borrowed for `'b`.
    pub(crate) fn at_level<'b>() -> LockToken<'b, L> {
        LockToken {
            level: PhantomData,
            parent: PhantomData,
        }
    }
}

impl LockToken<'static, Unlocked> {
    /// A root token, without the check that [`with_token`] makes.
    ///
    /// # Safety
    ///
    /// The calling thread must hold no ordered lock and no other token while
    /// this one, or any token made from it, is in use. In practice: call it
    /// once, first thing in a thread's entry point, never inside
    /// [`with_token`], and never from a function that others call.
    // TODO(enforcement): nothing checks this contract, so the function must
    // be `unsafe`: its callers answer for it. Keep its name, and its
    // `# Safety` section, which is the contract they answer for.
    pub fn new_unchecked() -> Self {
        LockToken::at_level()
    }
}

thread_local! {
    /// Whether this thread is inside [`with_token`].
    static LENT: Cell<bool> = const { Cell::new(false) };
}

/// Clears [`LENT`] when the closure returns or unwinds.
#[allow(dead_code)] // TODO(enforcement): `with_token` should use it.
struct Return;

impl Drop for Return {
    fn drop(&mut self) {
        LENT.with(|lent| lent.set(false));
    }
}

/// Runs `work` with this thread's root token.
///
/// The token is lent for the call only: `work` cannot keep it, or any token
/// made from it, past its return.
///
/// # Panics
///
/// If called inside another `with_token` on the same thread: the outer call
/// may hold locks, and a second root token could lock a low level under them.
pub fn with_token<R>(work: impl FnOnce(&mut LockToken<'_, Unlocked>) -> R) -> R {
    // TODO(enforcement): a nested call hands out a second root token. Record
    // in `LENT` that this thread's token is lent, panic if it already was,
    // and clear it when `work` returns or unwinds (`Return` does that).
    work(&mut LockToken::at_level())
}
