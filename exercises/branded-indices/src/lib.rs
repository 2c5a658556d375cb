//! # Exercise 6: branded indices
//!
//! Indices that are in bounds because of their type. [`with`] lends a vector
//! to a closure under a *brand*, a lifetime `'id`; [`Branded::index`] checks
//! a position once and returns an [`Index<'id>`]; lookups through it are
//! meant to skip the bounds check. Read the chapter "A guarantee the
//! optimizer can use" of the book first.
//!
//! The starter is the *broken* version from the chapter: it states the
//! invariants, but the fields are public and the brand is covariant, so an
//! index can be made without the check, or carried to another vector.
//! Your work, step by step (the grading cases follow the same steps):
//!
//! 1. **Definition** is done: read the invariants written on [`Branded`] and
//!    [`Index`] in `scope.rs`, and keep every public signature as it is,
//!    since the grading cases call them.
//! 2. **Enforcement** (`scope.rs`): make the fields private, make the brand
//!    invariant, and write the one bounds check in `index` and `push`.
//! 3. **Consumption** (`scope.rs`, `algorithms.rs`): lookups that rely on the
//!    check already made (`View::get`, `get`, `get_mut`, `swap`), and
//!    [`gather`], which makes its lookups through a [`View`].
//!
//! Every place to work on is marked `TODO(enforcement)` or
//! `TODO(consumption)`.

mod algorithms;
mod scope;

pub use algorithms::gather;
pub use scope::{Branded, Index, View, with};
