//! Proves enforcement: a bound or connected socket cannot be duplicated or
//! made from nothing. A `Clone` would give two owners of one endpoint (close
//! one, and the other still sends from an endpoint the network has freed);
//! a `Default` would make a socket in a state no `bind` or `connect` led to.
//! Neither `Socket<Bound>` nor `Socket<Connected>` may be `Clone`, `Copy` or
//! `Default`, however the impl is written (a derive, a generic impl, a
//! macro): each line asks the compiler whether the impl exists.
use witness_types::{Bound, Connected, Socket};

fn duplicable<T: Clone>() {}
fn copyable<T: Copy>() {}
fn from_nothing<T: Default>() {}

fn main() {
    duplicable::<Socket<Bound>>(); //~ ERROR E0277
    duplicable::<Socket<Connected>>(); //~ ERROR E0277
    copyable::<Socket<Bound>>(); //~ ERROR E0277
    copyable::<Socket<Connected>>(); //~ ERROR E0277
    from_nothing::<Socket<Bound>>(); //~ ERROR E0277
    from_nothing::<Socket<Connected>>(); //~ ERROR E0277
}
