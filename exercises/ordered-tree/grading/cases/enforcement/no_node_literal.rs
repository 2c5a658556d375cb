//! Proves enforcement: code outside the crate cannot build a node by hand,
//! so it cannot make a node whose children are on the wrong side. Each
//! literal must be refused for what the struct is: private fields (E0451,
//! or, when the struct has private fields the literal does not name, an
//! error saying "private field" that has no code), fields it does not have
//! (E0560, if the private ones have other names), or fields the literal
//! lacks (E0063). That no field is public at all is the `public_surface`
//! case's to check.
use ordered_tree::Node;

fn main() {
    let small = Node { key: 1, left: None, right: None }; //~ ERROR E0451|E0560|E0063|"private field"
    let _wrong = Node { key: 2, left: None, right: Some(Box::new(small)) }; //~ ERROR E0451|E0560|E0063|"private field"
}
