//! Proves enforcement: a token cannot be copied under another name. The
//! exercise allows one more way to a token, `LockToken::fork`, only as a
//! reborrow (netstack3's `Locked` has one, `as_owned`): the token it makes
//! borrows the old one mutably, as `lock`'s does, so the old token is
//! unusable while the fork lives. Here a spare made by `fork` would lock
//! the configuration while the original holds the balances: either the
//! crate has no `fork` (E0599), or the lock through the original is refused
//! while the fork lives (E0499). Any other name for a copy is a public item
//! the exercise does not have, which the `public_surface` case names.
use lock_order::{LockToken, OrderedMutex, impl_lock_after};

enum Config {}
enum Accounts {}

impl_lock_after!(Unlocked => Config);
impl_lock_after!(Unlocked => Accounts);

static CONFIG: OrderedMutex<Config, u64> = OrderedMutex::new(10);
static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());

fn main() {
    let mut root = LockToken::new();
    let mut spare = root.fork(); //~ ALLOW E0599
    let (mut balances, _) = ACCOUNTS.lock(&mut root); //~ ALLOW E0499
    let (fee, _) = CONFIG.lock(&mut spare);
    balances.push(*fee);
}
//~? ERROR E0599|E0499
