//! Proves enforcement: code outside the crate cannot build a node by hand,
//! so it cannot make a node whose children are on the wrong side. All three
//! fields of `Node` must be private.
use ordered_tree::Node;

fn main() {
    let small = Node { key: 1, left: None, right: None };
    let _wrong = Node { key: 2, left: None, right: Some(Box::new(small)) };
}
