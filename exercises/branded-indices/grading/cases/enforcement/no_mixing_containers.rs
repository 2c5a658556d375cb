//! Proves enforcement: an index checked against one vector is refused by
//! another. Both brands are fresh; if the brand were covariant, the
//! compiler could shorten both to a common lifetime, and the index of the
//! long vector would be accepted by the short one.
use branded_indices::with;

fn main() {
    let mut long = vec![1, 2, 3, 4, 5, 6, 7, 8];
    let mut short = vec![1];
    with(&mut long, |long| {
        let last = long.index(7).unwrap();
        with(&mut short, |short| {
            println!("{}", short.get(last)); //~ ERROR E0521|"lifetime may not live long enough"
        });
    });
}
