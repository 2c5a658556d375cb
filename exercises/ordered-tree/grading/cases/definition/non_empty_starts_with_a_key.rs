//! Proves the definition: a `NonEmptySet` cannot be made without a key. It
//! has no `Default`, so the only ways in are `NonEmptySet::new(first)` and
//! `OrderedSet::into_non_empty`, which checks.
use ordered_tree::NonEmptySet;

fn main() {
    let set: NonEmptySet<i32> = Default::default(); //~ ERROR E0277
    println!("{}", set.min());
}
