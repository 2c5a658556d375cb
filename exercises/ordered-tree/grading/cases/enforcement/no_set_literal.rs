//! Proves enforcement: code outside the crate cannot assemble an
//! `OrderedSet` from parts, such as a root it built itself or a length that
//! does not match the tree. The literal here is `OrderedSet { ..empty }`:
//! it names no field, so it has no type error whatever the private fields
//! are (their names, their types, a length kept in a private newtype), and
//! rustc refuses it for the one reason that matters, a private field
//! (E0451). With every field public it compiles, and the case fails.
use ordered_tree::OrderedSet;

fn main() {
    let empty: OrderedSet<i32> = OrderedSet::new();
    let set: OrderedSet<i32> = OrderedSet { ..empty }; //~ ERROR E0451
    println!("{}", set.len());
}
