//! Proves enforcement: `lock` takes its token by unique (`&mut`) reference.
//! Behind a shared reference, one token could be lent to two locks at once,
//! and this thread could hold the balances and the configuration, taken in
//! whichever order it likes.
use lock_order::{LockToken, OrderedMutex, impl_lock_after};

enum Config {}
enum Accounts {}

impl_lock_after!(Unlocked => Config);
impl_lock_after!(Unlocked => Accounts);

static CONFIG: OrderedMutex<Config, u64> = OrderedMutex::new(10);
static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());

fn main() {
    let root = LockToken::new();
    let (mut balances, _) = ACCOUNTS.lock(&root); //~ ERROR E0308
    let (fee, _) = CONFIG.lock(&root); //~ ERROR E0308
    balances.push(*fee);
}
