//! Proves the definition: while the closure runs, the vector is lent to
//! `with` for good (`&mut`), so the closure cannot reach it by its own name
//! to shrink it behind its indices' backs. (The compiler points at the
//! closure or at the use inside it, depending on its release.)
use branded_indices::with;

fn main() {
    //~? ERROR E0499|E0500|E0502
    let mut items = vec![10, 20, 30];
    with(&mut items, |branded| {
        let last = branded.index(2);
        items.clear();
        println!("{last:?}");
    });
}
