//! Algorithms that consume the guarantee: they take indices already checked
//! and do no bounds check of their own.

use crate::scope::{Branded, Index};

/// The items at `order`, in that order: applies a permutation (or any
/// selection, repeats allowed). Each lookup skips the bounds check, since
/// every `Index<'id>` was checked when it was made.
pub fn gather<'id, T: Clone>(items: &Branded<'id, T>, order: &[Index<'id>]) -> Vec<T> {
    // Through a view, the items' address stays in a register for the whole
    // loop (see `View`).
    let items = items.view();
    order
        .iter()
        .map(|&index| items.get(index).clone())
        .collect()
}
