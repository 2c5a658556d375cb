//! Proves enforcement: code outside the crate cannot assemble an
//! `OrderedSet` from parts, such as a root it built itself or a length that
//! does not match the tree. The literal must be refused for what the struct
//! is: private fields (E0451, or a code-less error saying "private field"
//! when the literal does not name them all), or fields of other names.
use ordered_tree::OrderedSet;

fn main() {
    let set: OrderedSet<i32> = OrderedSet { root: None, len: 3 }; //~ ERROR E0451|E0560|E0063|"private field"
    println!("{}", set.len());
}
