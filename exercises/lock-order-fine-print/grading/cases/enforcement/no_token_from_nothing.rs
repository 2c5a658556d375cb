//! Proves enforcement: the only root tokens are the one `with_token` lends
//! and the ones `unsafe` code makes. The lock-order exercise's safe `LockToken::new()` is
//! gone, and no trait makes one either: a `Default` token would be a second
//! root token that any helper could make under the locks its caller holds.
//! (Any other public way to make one is an item outside the exercise's API,
//! which `public_surface` reports.)
use lock_order_fine_print::{LockToken, Unlocked};

fn main() {
    let made = LockToken::new(); //~ ERROR E0599
    let defaulted: LockToken<'static, Unlocked> = Default::default(); //~ ERROR E0277
    drop((made, defaulted));
}
