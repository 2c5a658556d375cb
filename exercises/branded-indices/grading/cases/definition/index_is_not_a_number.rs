//! Proves the definition: an `Index<'id>` is not a `usize`. A plain number
//! cannot stand in for an index, so every index has gone through the
//! module that checks it.
use branded_indices::{Index, with};

fn main() {
    let mut items = vec![10, 20, 30];
    with(&mut items, |items| {
        let index: Index<'_> = 1usize; //~ ERROR E0308
        println!("{}", items.get(index));
    });
}
