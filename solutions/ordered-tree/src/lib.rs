//! An ordered set whose ordering no code outside one module can break.
//!
//! This is the reference solution of the X-safe Rust exercise `ordered-tree`.
//! It follows the course's three steps:
//!
//! * **Definition.** [`Node`] documents the property: every key in a node's
//!   left subtree is smaller than the node's key, and every key in its right
//!   subtree is larger. [`OrderedSet`] and [`NonEmptySet`] document theirs.
//! * **Enforcement.** Only the private `tree` module builds or changes nodes.
//!   The fields of [`Node`] are private to it, so neither users of the crate
//!   nor the other modules of this crate can put a key in the wrong place.
//! * **Consumption.** Everything else relies on the order: lookups follow one
//!   path instead of scanning, [`OrderedSet::iter`] is sorted without sorting
//!   or comparing, [`OrderedSet::range`] skips whole subtrees, and
//!   [`NonEmptySet::min`] returns `&T`, not `Option<&T>`.
//!
//! ```
//! use ordered_tree::OrderedSet;
//!
//! let set: OrderedSet<i32> = [5, 1, 4, 2, 3].into_iter().collect();
//! assert!(set.contains(&4));
//! assert_eq!(set.iter().copied().collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
//! assert_eq!(set.range(2..4).copied().collect::<Vec<_>>(), [2, 3]);
//! ```

mod iter;
mod set;
mod tree;

pub use iter::{Iter, Range};
pub use set::{NonEmptySet, OrderedSet};
pub use tree::Node;
