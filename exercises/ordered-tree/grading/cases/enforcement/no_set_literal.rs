//! Proves enforcement: code outside the crate cannot assemble an
//! `OrderedSet` from parts, such as a root it built itself or a length that
//! does not match the tree. Both fields of `OrderedSet` must be private.
use ordered_tree::OrderedSet;

fn main() {
    let set: OrderedSet<i32> = OrderedSet { root: None, len: 3 };
    println!("{}", set.len());
}
