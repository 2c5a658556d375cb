//! Proves enforcement: `lock` borrows the token it is given for as long as
//! the guard lives, so the old token cannot lock anything meanwhile. Here
//! the root token, already used to lock the balances, would lock the
//! configuration while the balances are held: the reverse of the order
//! another thread may use.
use lock_order::{LockToken, OrderedMutex, impl_lock_after};

enum Config {}
enum Accounts {}

impl_lock_after!(Unlocked => Config);
impl_lock_after!(Unlocked => Accounts);

static CONFIG: OrderedMutex<Config, u64> = OrderedMutex::new(10);
static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());

fn main() {
    let mut root = LockToken::new();
    let (mut balances, _) = ACCOUNTS.lock(&mut root);
    let (fee, _) = CONFIG.lock(&mut root); //~ ERROR E0499
    balances.push(*fee);
}
