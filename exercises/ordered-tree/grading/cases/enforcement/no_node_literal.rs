//! Proves enforcement: code outside the crate cannot write a struct
//! literal of `Node`, so it cannot build a node whose children are on the
//! wrong side. The literal here is `Node { ..*root }`: it names no field,
//! so it has no type error whatever the private fields are (their names,
//! their types, a key kept in a private newtype), and rustc refuses it for
//! the one reason that matters, a private field (E0451). With every field
//! public it would be refused for moving out of a reference instead, and
//! the case fails: that no field is public is also `public_surface`'s to
//! check. (rustc reports privacy errors only once no type error is left,
//! so a literal that gave a field a value could fail for that value's type
//! instead.)
use ordered_tree::{Node, OrderedSet};

fn main() {
    let mut set = OrderedSet::new();
    set.insert(1);
    let root: &Node<i32> = set.root_node().expect("the set has a root");
    let copy = Node { ..*root }; //~ ERROR E0451
    println!("{:?}", copy.key());
}
