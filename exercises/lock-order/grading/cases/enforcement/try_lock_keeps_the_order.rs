//! Proves enforcement: a lock that does not wait keeps the order too. The
//! exercise allows `OrderedMutex::try_lock` only with `lock`'s bound and
//! borrow. Without the bound, a thread holding the counters could take the
//! balances by `try_lock`, and the token at `Accounts` it got back would
//! then let it wait for the ledger while it holds the counters, the reverse
//! of what a transfer does. Either the crate has no `try_lock` (E0599), or
//! the attempt with a token at `Tally` is refused for the order (E0277), and
//! the root token cannot lock anything while an attempt it made lives
//! (E0499).
use lock_order::{LockToken, OrderedMutex, impl_lock_after};

enum Config {}
enum Accounts {}
enum Ledger {}
enum Tally {}

impl_lock_after!(Unlocked => Config);
impl_lock_after!(Unlocked => Accounts);
impl_lock_after!(Accounts => Ledger);
impl_lock_after!(Ledger => Tally);

static CONFIG: OrderedMutex<Config, u64> = OrderedMutex::new(10);
static ACCOUNTS: OrderedMutex<Accounts, Vec<u64>> = OrderedMutex::new(Vec::new());

/// Called with the counters held.
fn under_the_counters(token: &mut LockToken<'_, Tally>) {
    let attempt = ACCOUNTS.try_lock(token); //~ ERROR E0277|E0599
    drop(attempt);
}

/// The root token, used again while an attempt it made is alive.
fn twice() {
    let mut root = LockToken::new();
    let attempt = ACCOUNTS.try_lock(&mut root); //~ ALLOW E0599
    let (fee, _) = CONFIG.lock(&mut root); //~ ALLOW E0499
    drop(attempt);
    println!("{}", *fee);
}
//~? ERROR E0499|E0599

fn main() {
    twice();
    let _ = under_the_counters;
}
