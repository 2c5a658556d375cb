//! Proves enforcement: code outside the crate cannot write a struct literal
//! of `Index`, so it cannot make an index that skipped the bounds check
//! (with public fields, `Index { position: 1_000_000, ..first }` would be
//! one). The literal here is `Index { ..first }`: it names no field, so it
//! has no type error whatever the private fields are (their names, their
//! types, a brand kept in a newtype of the learner's own), and rustc
//! refuses it for the one reason that matters, a private field (E0451).
//! With every field public it compiles, and the case fails. (rustc reports
//! privacy errors only once no type error is left, so a literal that gave a
//! field a value could fail for that value's type instead.)
use branded_indices::{Index, with};

fn main() {
    let mut items = vec![10, 20, 30];
    with(&mut items, |items| {
        let first: Index<'_> = items.index(0).expect("the vector has an item");
        let copy: Index<'_> = Index { ..first }; //~ ERROR E0451
        println!("{}", items.get(copy));
    });
}
