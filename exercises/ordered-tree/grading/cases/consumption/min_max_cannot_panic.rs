//! Proves consumption: a `NonEmptySet` relies on holding a key, so its
//! `min` and `max` keep no way to panic. In a release build (opt-level 3,
//! debug assertions off), `min` and `max` of a `NonEmptySet<u64>` reach no
//! `panic!`, `unwrap`, `expect`, `unreachable!` or failed bounds check: the
//! root is a node, and the chain of left (or right) children ends at a
//! node. An `Option` that the code unwraps again is the panic path the type
//! was made to remove.
//!
//! The grading engine compiles this file as a library next to your crate,
//! with the compiler's assembly, and follows every call from each function
//! below (see `ci/grade/src/no_panic.rs`). Nothing here runs.
use ordered_tree::NonEmptySet;

#[inline(never)]
pub fn min(set: &NonEmptySet<u64>) -> &u64 {
    set.min()
}

#[inline(never)]
pub fn max(set: &NonEmptySet<u64>) -> &u64 {
    set.max()
}
