//! Proves enforcement: the keys a set hands out are shared references, so
//! a caller cannot change a key in place and leave it in the wrong position.
use ordered_tree::OrderedSet;

fn main() {
    let set: OrderedSet<i32> = [2, 1, 3].into_iter().collect();
    if let Some(root) = set.root_node() {
        *root.key() = 10; //~ ERROR E0594
    }
    for key in set.iter() {
        *key += 100; //~ ERROR E0594
    }
}
