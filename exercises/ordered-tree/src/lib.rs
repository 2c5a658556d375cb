//! # Exercise 1: an ordered tree
//!
//! A set of keys in a binary search tree, whose order no code outside one
//! module can break. Read the chapter "An ordered tree" of the book first.
//!
//! The starter is the *broken* version from the chapter: it states the
//! invariant, but every field is public, so any caller can put a key in the
//! wrong place. Your work, step by step (the grading cases follow the same
//! steps; run `cargo test -p ordered-tree`):
//!
//! 1. **Definition** is done: read the invariants written on [`Node`],
//!    [`OrderedSet`] and [`NonEmptySet`], and keep every public signature as
//!    it is, since the grading cases call them.
//! 2. **Enforcement** (`tree.rs`, `set.rs`): make the fields private, so that
//!    only the `tree` module can build or change a node, and write `insert`
//!    and `remove` so that they keep the order.
//! 3. **Consumption** (`set.rs`, `iter.rs`): write the code that relies on the
//!    order: lookups that follow one path, iteration that compares nothing,
//!    `first`/`last`/`range`, and `min`/`max` without `Option`.
//!
//! Every place to work on is marked `TODO(enforcement)` or
//! `TODO(consumption)`.

mod iter;
mod set;
mod tree;

pub use iter::{Iter, Range};
pub use set::{NonEmptySet, OrderedSet};
pub use tree::Node;
