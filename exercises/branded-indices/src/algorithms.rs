//! Algorithms that consume the guarantee: they take indices already checked
//! and do no bounds check of their own.

use crate::scope::{Branded, Index};

/// The items at `order`, in that order: applies a permutation (or any
/// selection, repeats allowed). Each lookup skips the bounds check, since
/// every `Index<'id>` was checked when it was made.
pub fn gather<'id, T: Clone>(items: &Branded<'id, T>, order: &[Index<'id>]) -> Vec<T> {
    // TODO(consumption): one lookup per index, in order, through
    // `items.view()` (see `View` for why).
    let _ = (items, order);
    todo!()
}
