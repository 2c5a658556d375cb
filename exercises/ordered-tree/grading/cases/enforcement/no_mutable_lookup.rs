//! Proves enforcement: there is no `get_mut` that would hand out `&mut T` to
//! a key inside the tree. Changing a key means removing it and inserting the
//! new one, so that the tree can put it where it belongs.
use ordered_tree::OrderedSet;

fn main() {
    let mut set: OrderedSet<i32> = [2, 1, 3].into_iter().collect();
    if let Some(key) = set.get_mut(&1) { //~ ERROR E0599
        *key = 10;
    }
}
