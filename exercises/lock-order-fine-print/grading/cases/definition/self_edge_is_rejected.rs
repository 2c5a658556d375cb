//! Proves the definition: no level comes after itself. Declaring
//! `Account => Account`, to hold two accounts at once, does not compile: the
//! blanket impl that `impl_lock_after!` writes derives the very edge it
//! declares (E0119).
use lock_order_fine_print::impl_lock_after;

enum Account {}

impl_lock_after!(Unlocked => Account);
// Wanted: lock the account paid while the paying one is held.
impl_lock_after!(Account => Account); //~ ERROR E0119

fn main() {}
