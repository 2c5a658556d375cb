//! Proves enforcement: `LockBefore` cannot be implemented outside the
//! crate, so the order holds exactly where `impl_lock_after!` put it. An
//! impl written by hand for `Ledger: LockBefore<Accounts>`, the reverse of
//! the declared edge, would let a token at `Ledger` lock the balances; it
//! is refused because `LockBefore`'s supertrait, which the crate keeps
//! private and implements only where the order holds, does not hold for
//! that pair (E0277). (`LockBefore` is a safe trait: sealed, it has no
//! implementer outside the crate to make a promise to.)
use lock_order::{LockBefore, LockToken, OrderedMutex, impl_lock_after};

enum Accounts {}
enum Ledger {}

impl_lock_after!(Unlocked => Accounts);
impl_lock_after!(Accounts => Ledger);

// The door the seal closes:
impl LockBefore<Accounts> for Ledger {} //~ ERROR E0277

static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());
static LEDGER: OrderedMutex<Ledger, Vec<u64>> = OrderedMutex::new(Vec::new());

fn main() {
    let mut root = LockToken::new();
    let (balances, mut at_accounts) = ACCOUNTS.lock(&mut root);
    drop(balances);
    let (ledger, mut at_ledger) = LEDGER.lock(&mut at_accounts);
    // The balances under the ledger: the reverse of the declared order.
    let (balances, _) = ACCOUNTS.lock(&mut at_ledger); //~ ALLOW E0277
    println!("{} {}", ledger.len(), balances.len());
}
