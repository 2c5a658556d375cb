//! Proves enforcement: no lock skips the order, not even one that does not
//! wait. A thread holding the history cannot `try_lock`, `try_read` or
//! `try_write` the rates, which come before it: what it locked out of order
//! it would hold while it waits for later levels. Such methods may exist
//! (the manifest allows them), but only with the bound `lock` has.
use lock_order_fine_print::{OrderedMutex, OrderedRwLock, WriteLock, impl_lock_after, with_token};

enum Rates {}
enum History {}

impl_lock_after!(Unlocked => Rates);
impl_lock_after!(Rates => History);

static LIMIT: OrderedMutex<Rates, u64> = OrderedMutex::new(10);
static RATES: OrderedRwLock<Rates, u64> = OrderedRwLock::new(3);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

fn main() {
    with_token(|token| {
        let (mut history, mut at_history) = HISTORY.write(token);
        drop(LIMIT.try_lock(&mut at_history)); //~ ERROR E0599|E0277
        drop(RATES.try_read(&mut at_history)); //~ ERROR E0599|E0277
        drop(RATES.try_write(&mut at_history)); //~ ERROR E0599|E0277
        history.push(0);
    });
}
