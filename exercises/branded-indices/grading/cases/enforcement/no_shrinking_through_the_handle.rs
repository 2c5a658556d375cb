//! Proves enforcement: the branded handle cannot shrink its vector, since
//! an index made before would then point past the end. Neither a method
//! (`truncate`, `pop`, `clear`, under any name the crate may add, is for
//! the `public_surface` case) nor the vector itself is reachable.
use branded_indices::with;

fn main() {
    let mut items = vec![10, 20, 30];
    with(&mut items, |mut items| {
        let last = items.index(2).unwrap();
        items.truncate(1); //~ ERROR E0599
        items.items.truncate(1); //~ ERROR E0609|E0616
        println!("{}", items.get(last));
    });
}
