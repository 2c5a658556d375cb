//! # Exercise 4: locks in a declared order
//!
//! Mutexes that can only be locked in an order declared once, so that no two
//! threads can each hold a lock the other waits for. Read the chapter
//! "Compile-time deadlock prevention" of the book first.
//!
//! The starter is the *broken* version: the levels and the two relation
//! traits are defined and documented, but nothing uses them. Any token may
//! lock any mutex, tokens can be copied, and a lock lets go of the token it
//! was given as soon as it returns. Your work, step by step (the grading
//! cases follow the same steps; run `cargo xsafe` to grade it):
//!
//! 1. **Definition** is done: read [`LockAfter`], [`LockBefore`],
//!    [`LockToken`] and [`OrderedMutex`], and keep every public signature
//!    that is not marked `TODO`, and the syntax of [`impl_lock_after!`]: the
//!    grading cases use them.
//! 2. **Enforcement** (`relation.rs`, `mutex.rs`): make [`LockBefore`] and
//!    its seal hold exactly where [`LockAfter`] does, make
//!    [`impl_lock_after!`] write the edge and the blanket impl that makes the
//!    order transitive (so that a cycle does not compile), and make
//!    [`OrderedMutex::lock`] borrow the token it is given for as long as the
//!    guard and the new token live. Make public nothing the starter does not
//!    (a grading case reads the crate's public items): anything public is a
//!    way around `lock` for code outside the crate.
//! 3. **Consumption** (`bank.rs`): write the bank's methods, which take
//!    their three locks in order.
//!
//! Every place to work on is marked `TODO(enforcement)` or
//! `TODO(consumption)`.

pub mod bank;
mod mutex;
mod relation;

pub use mutex::{LockToken, OrderedMutex};
pub use relation::{LockAfter, LockBefore, Unlocked};
