//! Proves the definition: a set that may be empty cannot promise a smallest
//! key. `OrderedSet::first` returns `Option<&T>`; only a `NonEmptySet` hands
//! out `&T` with no `Option`.
use ordered_tree::OrderedSet;

fn main() {
    let set: OrderedSet<i32> = OrderedSet::new();
    let smallest: &i32 = set.first(); //~ ERROR E0308
    println!("{smallest}");
}
