//! Proves enforcement: a token cannot be cloned or copied. A spare copy of
//! the root token would lock the configuration while the original holds the
//! balances.
use lock_order::{LockToken, OrderedMutex, impl_lock_after};

enum Config {}
enum Accounts {}

impl_lock_after!(Unlocked => Config);
impl_lock_after!(Unlocked => Accounts);

static CONFIG: OrderedMutex<Config, u64> = OrderedMutex::new(10);
static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());

fn main() {
    let mut root = LockToken::new();
    let mut spare = root.clone(); //~ ERROR E0599
    let (mut balances, _) = ACCOUNTS.lock(&mut root);
    let (fee, _) = CONFIG.lock(&mut spare);
    balances.push(*fee);
}
