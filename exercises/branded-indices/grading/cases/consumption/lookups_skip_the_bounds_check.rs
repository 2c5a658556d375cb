//! Proves consumption: the lookups rely on the check already made. In a
//! release build (opt-level 3, debug assertions off), none of `get`,
//! `View::get`, `get_mut`, `swap` and `gather`, called on a
//! `Branded<'_, u64>` with indices of its brand, keeps a way to panic: no
//! bounds check of `items[i]` or `<[T]>::swap`, no `assert!`, no `unwrap`.
//! Allocating `gather`'s result may fail; that path is not counted.
//!
//! The grading engine compiles this file as a library next to your crate,
//! with the compiler's assembly, and follows every call from each function
//! below (see `ci/grade/src/no_panic.rs`). Nothing here runs.
use branded_indices::{Branded, Index, View, gather};

#[inline(never)]
pub fn get<'a, 'id>(items: &'a Branded<'id, u64>, index: Index<'id>) -> &'a u64 {
    items.get(index)
}

#[inline(never)]
pub fn view_get<'a, 'id>(view: View<'a, 'id, u64>, index: Index<'id>) -> &'a u64 {
    view.get(index)
}

#[inline(never)]
pub fn get_mut<'a, 'id>(items: &'a mut Branded<'id, u64>, index: Index<'id>) -> &'a mut u64 {
    items.get_mut(index)
}

#[inline(never)]
pub fn swap<'id>(items: &mut Branded<'id, u64>, a: Index<'id>, b: Index<'id>) {
    items.swap(a, b);
}

#[inline(never)]
pub fn gather_all<'id>(items: &Branded<'id, u64>, order: &[Index<'id>]) -> Vec<u64> {
    gather(items, order)
}
