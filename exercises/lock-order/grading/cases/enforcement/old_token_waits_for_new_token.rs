//! Proves enforcement: the token that `lock` returns keeps the old token
//! borrowed, even once the first guard is gone. While the ledger is locked
//! through the new token, the root token cannot lock the configuration.
use lock_order::{LockToken, OrderedMutex, impl_lock_after};

enum Config {}
enum Accounts {}
enum Ledger {}

impl_lock_after!(Unlocked => Config);
impl_lock_after!(Unlocked => Accounts);
impl_lock_after!(Accounts => Ledger);

static CONFIG: OrderedMutex<Config, u64> = OrderedMutex::new(10);
static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());
static LEDGER: OrderedMutex<Ledger, Vec<u64>> = OrderedMutex::new(Vec::new());

fn main() {
    let mut root = LockToken::new();
    let (balances, mut at_accounts) = ACCOUNTS.lock(&mut root);
    drop(balances);
    let (mut ledger, _) = LEDGER.lock(&mut at_accounts);
    let (fee, _) = CONFIG.lock(&mut root); //~ ERROR E0499
    ledger.push(*fee);
}
