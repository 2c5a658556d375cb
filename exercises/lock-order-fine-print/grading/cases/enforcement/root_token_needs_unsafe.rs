//! Proves enforcement: the root token made without `with_token`'s check
//! needs `unsafe`. Here a helper makes one while its caller holds an
//! account, and locks the history with it: nothing but its caller's promise
//! could rule that out, so the call must be an `unsafe` block that makes it.
use lock_order_fine_print::bank::{Accounts, History};
use lock_order_fine_print::{Lock, LockToken, OrderedMutex, OrderedRwLock, WriteLock, with_token};

static ACCOUNT: OrderedMutex<Accounts, u64> = OrderedMutex::new(100);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

fn log(amount: u64) {
    let mut token = LockToken::new_unchecked(); //~ ERROR E0133
    let (mut history, _) = HISTORY.write(&mut token);
    history.push(amount);
}

fn main() {
    with_token(|token| {
        let (balance, _) = ACCOUNT.lock(token);
        log(*balance);
    });
}
