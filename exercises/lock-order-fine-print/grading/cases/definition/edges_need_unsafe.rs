//! Proves the definition: an edge of the order written without
//! `impl_lock_after!` needs `unsafe`. Such an edge comes without the blanket
//! impl that turns a cycle into a compile error, so its author must answer
//! for it: here it puts the rates after the history, the reverse of the
//! declared order.
use lock_order_fine_print::{LockAfter, impl_lock_after};

enum Rates {}
enum History {}

impl_lock_after!(Unlocked => Rates);
impl_lock_after!(Rates => History);

impl LockAfter<History> for Rates {} //~ ERROR E0200

fn main() {}
