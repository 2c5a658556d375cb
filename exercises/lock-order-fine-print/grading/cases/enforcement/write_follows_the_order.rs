//! Proves enforcement: writing follows the order. A thread reading the
//! history cannot write the rates, which come before it.
use lock_order_fine_print::{OrderedRwLock, ReadLock, WriteLock, impl_lock_after, with_token};

enum Rates {}
enum History {}

impl_lock_after!(Unlocked => Rates);
impl_lock_after!(Rates => History);

static RATES: OrderedRwLock<Rates, u64> = OrderedRwLock::new(3);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

fn main() {
    with_token(|token| {
        let (history, mut at_history) = HISTORY.read(token);
        let (mut rate, _) = RATES.write(&mut at_history); //~ ERROR E0277
        *rate = history.len() as u64;
    });
}
