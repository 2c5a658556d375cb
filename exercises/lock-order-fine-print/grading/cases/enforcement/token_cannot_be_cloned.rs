//! Proves enforcement: a token cannot be cloned or copied, neither the root
//! token nor a token at a level, even a level that is itself `Clone` (which
//! a derived `Clone` would accept). A spare root token would lock the
//! history while the original holds an account, and another thread may
//! take them the other way round. Each attempt is a function of its own,
//! so that the compiler checks each one.
use lock_order_fine_print::bank::{Accounts, History};
use lock_order_fine_print::{
    Lock, LockToken, OrderedMutex, OrderedRwLock, Unlocked, WriteLock, impl_lock_after, with_token,
};

static ACCOUNT: OrderedMutex<Accounts, u64> = OrderedMutex::new(100);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

/// A level that is `Clone` and `Copy`, as a level may well be.
#[derive(Clone, Copy)]
enum Plain {}

impl_lock_after!(Unlocked => Plain);

static PLAIN: OrderedMutex<Plain, u64> = OrderedMutex::new(0);

fn cloned_root(token: &mut LockToken<'_, Unlocked>) {
    let mut spare = token.clone(); //~ ERROR E0599
    let (mut history, _) = HISTORY.write(&mut spare);
    let (balance, _) = ACCOUNT.lock(token);
    history.push(*balance);
}

fn copied_root(token: &mut LockToken<'_, Unlocked>) {
    let mut spare: LockToken<'_, Unlocked> = *token; //~ ERROR E0507
    let (mut history, _) = HISTORY.write(&mut spare);
    let (balance, _) = ACCOUNT.lock(token);
    history.push(*balance);
}

fn cloned_level(token: &mut LockToken<'_, Unlocked>) {
    let (plain, at_plain) = PLAIN.lock(token);
    let spare = at_plain.clone(); //~ ERROR E0599
    drop((plain, at_plain, spare));
}

fn main() {
    with_token(cloned_root);
    with_token(copied_root);
    with_token(cloned_level);
}
