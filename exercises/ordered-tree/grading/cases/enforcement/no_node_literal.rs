//! Proves enforcement: code outside the crate cannot write a struct
//! literal of `Node`, so it cannot build a node whose children are on the
//! wrong side. The literal here is `Node { ..node }`: it names no field,
//! so it has no type error whatever the private fields are (their names,
//! their types, a key kept in a private newtype), and rustc refuses it for
//! the one reason that matters, a private field (E0451). It takes the
//! node by value, so no move out of a borrow hides that error. With every
//! field public it compiles, and the case fails. (rustc reports privacy
//! errors only once no type error is left, so a literal that gave a field
//! a value could fail for that value's type instead.)
use ordered_tree::Node;

/// Never called: outside code has no way to own a node. That it compiles
/// is what is asked.
fn rebuilt(node: Node<i32>) -> Node<i32> {
    Node { ..node } //~ ERROR E0451
}

fn main() {
    let _ = rebuilt;
}
