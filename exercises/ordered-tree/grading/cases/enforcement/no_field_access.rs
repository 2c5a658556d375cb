//! Proves enforcement: code outside the crate cannot reach the fields of a
//! set or a node, neither to replace a subtree nor to overwrite a key.
use ordered_tree::OrderedSet;

fn main() {
    let mut set: OrderedSet<i32> = [2, 1, 3].into_iter().collect();
    set.len = 0;
    if let Some(root) = set.root_node() {
        println!("{:?}", root.left);
    }
}
