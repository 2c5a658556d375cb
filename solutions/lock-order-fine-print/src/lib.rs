//! # Exercise 5: the fine print of lock ordering
//!
//! The ordered mutexes of the chapter "Compile-time deadlock
//! prevention", with the holes closed that the chapter
//! "The fine print of compile-time lock ordering" shows: two locks of the
//! same level, more than one root token on a thread, and read locks.
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
