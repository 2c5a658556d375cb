//! Proves enforcement: the brand is invariant. Each function below compiles
//! only if the compiler may shorten a brand (covariance), which is what
//! lets two brands unify; both must be refused.
use branded_indices::{Branded, Index};

fn shorten_index<'long: 'short, 'short>(index: Index<'long>) -> Index<'short> {
    index //~ ERROR "lifetime may not live long enough"
}

fn shorten_handle<'a, 'long: 'short, 'short>(items: &'a Branded<'long, u32>) -> &'a Branded<'short, u32> {
    items //~ ERROR "lifetime may not live long enough"
}

fn main() {
    let _ = (shorten_index, shorten_handle);
}
