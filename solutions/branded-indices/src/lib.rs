//! # Exercise 6: branded indices
//!
//! Indices that are in bounds because of their type. [`with`] lends a vector
//! to a closure under a fresh *brand*, a lifetime `'id` that no other vector
//! has; [`Branded::index`] checks a position once and returns an
//! [`Index<'id>`], which only that vector accepts; lookups through it skip
//! the bounds check. Read the chapter "A guarantee the optimizer can use" of
//! the book first.
//!
//! 1. **Definition**: the invariants are written on [`Branded`] and
//!    [`Index`], in `scope.rs`.
//! 2. **Enforcement** (`scope.rs`): only `scope` makes an `Index`, after the
//!    check; the brand is invariant; the vector cannot shrink while the
//!    scope lasts.
//! 3. **Consumption** (`scope.rs`, `algorithms.rs`): lookups without a
//!    bounds check, through a [`View`] when there are many in a row, and
//!    [`gather`], which applies an order of indices.

mod algorithms;
mod scope;

pub use algorithms::gather;
pub use scope::{Branded, Index, View, with};
