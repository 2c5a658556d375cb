//! Proves the definition: `LockAfter` is an `unsafe` trait, so an edge of
//! the lock order cannot be declared by hand, past `impl_lock_after!` and
//! the blanket impl it adds, without writing `unsafe` and answering for it.
use lock_order::{LockAfter, Unlocked};

enum Accounts {}

impl LockAfter<Unlocked> for Accounts {} //~ ERROR E0200

fn main() {}
