//! Proves the definition: the root token that `with_token` lends cannot
//! leave the closure, so no code keeps a root token around to lock with
//! later, under locks taken through another one.
use lock_order_fine_print::with_token;

fn main() {
    let kept = with_token(|token| token); //~ ERROR "lifetime may not live long enough"
    let _ = kept;
}
