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
    // A raw pointer is neither `Send` nor `Sync`, so neither is the token.
    this_thread: PhantomData<*const ()>,
}

impl<L> LockToken<'_, L> {
    /// A token at level `L` borrowing for `'b`. Only the locks of this crate
    /// call it, with the token they were given borrowed for `'b`.
    pub(crate) fn at_level<'b>() -> LockToken<'b, L> {
        LockToken {
            level: PhantomData,
            parent: PhantomData,
            this_thread: PhantomData,
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
    pub unsafe fn new_unchecked() -> Self {
        LockToken::at_level()
    }
}

thread_local! {
    /// Whether this thread is inside [`with_token`].
    static LENT: Cell<bool> = const { Cell::new(false) };
}

/// Clears [`LENT`] when the closure returns or unwinds.
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
    let nested = LENT.with(|lent| lent.replace(true));
    assert!(
        !nested,
        "with_token called inside with_token: this thread already has its root token"
    );
    let _return = Return;
    work(&mut LockToken::at_level())
}
