//! Proves enforcement: code outside the crate cannot reach the fields of a
//! set or a node, neither to replace a subtree nor to overwrite a key. Each
//! access must be refused: a private field (E0616), no such field (E0609),
//! or only a method of that name (E0615).
use ordered_tree::OrderedSet;

fn main() {
    let mut set: OrderedSet<i32> = [2, 1, 3].into_iter().collect();
    set.len = 0; //~ ERROR E0616|E0609|E0615
    if let Some(root) = set.root_node() {
        println!("{:?}", root.left); //~ ERROR E0616|E0609|E0615
    }
}
