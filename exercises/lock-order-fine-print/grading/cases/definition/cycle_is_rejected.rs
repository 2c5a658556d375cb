//! Proves the definition: the declared order has no cycle. Declaring that
//! the rates come after the history, when the history comes after the
//! rates, does not compile: the blanket impls that `impl_lock_after!`
//! writes derive an edge that another edge already wrote (E0119), which
//! the compiler may report at either of the two edges.
use lock_order_fine_print::impl_lock_after;

enum Rates {}
enum History {}

impl_lock_after!(Unlocked => Rates);
impl_lock_after!(Rates => History);
// Wanted: read the rates while the history is held.
impl_lock_after!(History => Rates); //~? ERROR E0119

fn main() {}
