//! Proves the definition: an index cannot leave the closure that `with`
//! gave its brand. Once `with` returns, the vector is the caller's again
//! and may shrink, so an index kept past the closure could point past its
//! end. `with` asks for a closure that works for every brand (`for<'id>`),
//! and its result type cannot name one of them.
use branded_indices::with;

fn main() {
    let mut items = vec![10, 20, 30];
    let kept = with(&mut items, |items| items.index(2)); //~ ERROR "lifetime may not live long enough"
    items.clear();
    println!("{kept:?}");
}
