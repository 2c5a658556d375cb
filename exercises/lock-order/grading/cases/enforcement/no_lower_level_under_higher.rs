//! Proves enforcement: a thread holding a lock cannot take one at an earlier
//! level. Code that holds the ledger and asks for the balances would
//! deadlock against a transfer, which takes the balances first; it does not
//! compile, and the error is about these two levels.
use lock_order::{LockToken, OrderedMutex, impl_lock_after};

enum Accounts {}
enum Ledger {}

impl_lock_after!(Unlocked => Accounts);
impl_lock_after!(Accounts => Ledger);

static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());
static LEDGER: OrderedMutex<Ledger, Vec<u64>> = OrderedMutex::new(Vec::new());

/// Called with the ledger locked, and wants the balances too.
fn reconcile(ledger: &[u64], token: &mut LockToken<'_, Ledger>) -> bool {
    let (balances, _) = ACCOUNTS.lock(token); //~ ERROR E0277 "Ledger" "Accounts"
    balances.iter().sum::<u64>() == ledger.iter().sum::<u64>()
}

fn main() {
    let mut root = LockToken::new();
    let (balances, mut at_accounts) = ACCOUNTS.lock(&mut root);
    drop(balances);
    let (ledger, mut at_ledger) = LEDGER.lock(&mut at_accounts);
    println!("{}", reconcile(&ledger, &mut at_ledger));
}
