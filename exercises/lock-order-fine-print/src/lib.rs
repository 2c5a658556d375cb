//! # Exercise 5: the fine print of lock ordering
//!
//! The ordered mutexes of the chapter "Compile-time deadlock
//! prevention", with the holes closed that the chapter
//! "The fine print of compile-time lock ordering" shows: two locks of the
//! same level, more than one root token on a thread, and read locks.
//!
//! The starter is the *broken* version. The order itself (`relation`) and
//! the mutex (`mutex`) are given, complete, from that chapter. The rest has
//! holes: tokens can be copied and sent to other threads, `with_token` can
//! be nested, [`LockToken::new_unchecked`] is safe to call, the read-write
//! lock and the pair lock ignore the order and are not written, and neither
//! is the bank. Your work, step by step (run `cargo xsafe`, which grades
//! your crate as you save):
//!
//! 1. **Definition** is done: keep every public signature that is not
//!    marked `TODO`, and the syntax of [`impl_lock_after!`], since the
//!    grading cases call them. Add no other public item: anything public is
//!    something outside code can use to get around the order, and the
//!    grading lists it (see the chapter's "The exercise").
//! 2. **Enforcement** (`token.rs`, `rwlock.rs`, `pair.rs`).
//! 3. **Consumption** (`bank.rs`).
//!
//! Every place to work on is marked `TODO(enforcement)` or
//! `TODO(consumption)`.
//!
//! Every guarantee has its module, whose documentation states it:
//! `relation` (the order, with no level after itself),
//! `token` (one root token per thread, never sent or copied), `mutex`,
//! `rwlock` (reads follow the order too) and `pair` (two locks of one level,
//! always in address order). `bank` only uses them.

pub mod bank;
mod mutex;
mod pair;
mod relation;
mod rwlock;
mod token;

pub use mutex::{Lock, OrderedMutex};
pub use pair::{Both, LockBoth, SameLock};
pub use relation::{LockAfter, LockBefore, Unlocked};
pub use rwlock::{OrderedRwLock, ReadLock, WriteLock};
pub use token::{LockToken, with_token};
