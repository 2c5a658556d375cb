//! Proves enforcement: reading is locking. A thread holding the history
//! cannot read the rates, which come before it: a writer of the rates that
//! then wants the history would wait for this reader while it waits for the
//! writer.
use lock_order_fine_print::{OrderedRwLock, ReadLock, WriteLock, impl_lock_after, with_token};

enum Rates {}
enum History {}

impl_lock_after!(Unlocked => Rates);
impl_lock_after!(Rates => History);

static RATES: OrderedRwLock<Rates, u64> = OrderedRwLock::new(3);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

fn main() {
    with_token(|token| {
        let (mut history, mut at_history) = HISTORY.write(token);
        let (rate, _) = RATES.read(&mut at_history); //~ ERROR E0277
        history.push(*rate);
    });
}
