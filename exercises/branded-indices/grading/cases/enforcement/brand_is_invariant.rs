//! Proves enforcement: the brand is invariant. Each function below compiles
//! only if the compiler may shorten a brand (covariance), which is what
//! lets two brands unify, or lengthen one (contravariance), which lets an
//! index of one scope pass for an index of a scope that outlives it (to
//! `'static`, and from there into any other); all must be refused.
use branded_indices::{Branded, Index, View};

fn shorten_index<'long: 'short, 'short>(index: Index<'long>) -> Index<'short> {
    index //~ ERROR "lifetime may not live long enough"
}

fn shorten_handle<'a, 'long: 'short, 'short>(items: &'a Branded<'long, u32>) -> &'a Branded<'short, u32> {
    items //~ ERROR "lifetime may not live long enough"
}

fn lengthen_index<'short>(index: Index<'short>) -> Index<'static> {
    index //~ ERROR "lifetime may not live long enough"
}

fn lengthen_view<'a, 'short>(view: View<'a, 'short, u32>) -> View<'a, 'static, u32> {
    view //~ ERROR "lifetime may not live long enough"
}

fn main() {
    let _ = (shorten_index, shorten_handle, lengthen_index, lengthen_view);
}
