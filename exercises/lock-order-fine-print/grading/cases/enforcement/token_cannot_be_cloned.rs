//! Proves enforcement: a token cannot be cloned or copied. A spare root
//! token would lock the history while the original holds an account, and
//! another thread may take them the other way round.
use lock_order_fine_print::bank::{Accounts, History};
use lock_order_fine_print::{Lock, OrderedMutex, OrderedRwLock, WriteLock, with_token};

static ACCOUNT: OrderedMutex<Accounts, u64> = OrderedMutex::new(100);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

fn main() {
    with_token(|token| {
        let mut spare = token.clone(); //~ ERROR E0599
        let (mut history, _) = HISTORY.write(&mut spare);
        let (balance, _) = ACCOUNT.lock(token);
        history.push(*balance);
    });
}
