//! Proves enforcement: a cycle in the declared order does not compile.
//! `Ledger => Accounts` closes the cycle Accounts => Ledger => Accounts; the
//! blanket impls written by `impl_lock_after!` then derive impls that the
//! edges already wrote, and the compiler rejects them as conflicting (E0119)
//! at the edge that closes the cycle. Which of the other edges it also
//! names depends on the order in which a solution writes its impls.
use lock_order::impl_lock_after;

enum Accounts {}
enum Ledger {}

impl_lock_after!(Unlocked => Accounts); //~ ALLOW E0119
impl_lock_after!(Accounts => Ledger); //~ ALLOW E0119
// A later change wants the balances while the ledger is held:
impl_lock_after!(Ledger => Accounts); //~ ERROR E0119

fn main() {}
