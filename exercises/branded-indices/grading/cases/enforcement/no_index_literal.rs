//! Proves enforcement: code outside the crate cannot write an index by
//! hand, so it cannot make one that skipped the bounds check. The literal
//! must be refused for what `Index` is: private fields (E0451, or an error
//! saying "private field"), fields it does not have (E0560), or fields the
//! literal lacks (E0063).
use branded_indices::{Index, with};
use std::marker::PhantomData;

fn main() {
    let mut items = vec![10, 20, 30];
    with(&mut items, |items| {
        let far: Index<'_> = Index { position: 1_000_000, brand: PhantomData }; //~ ERROR E0451|E0560|E0063|"private field"
        println!("{}", items.get(far));
    });
}
