//! Proves enforcement: the token a lock was taken with stays borrowed while
//! what the lock returned lives, for reads, writes and pairs as for
//! `lock`. Otherwise a thread holding the history (or two accounts) could
//! go back to its root token and lock the rates, which come before.
use lock_order_fine_print::{
    LockBoth, OrderedMutex, OrderedRwLock, ReadLock, WriteLock, impl_lock_after, with_token,
};

enum Rates {}
enum Account {}
enum History {}

impl_lock_after!(Unlocked => Rates);
impl_lock_after!(Rates => Account);
impl_lock_after!(Account => History);

static RATES: OrderedRwLock<Rates, u64> = OrderedRwLock::new(3);
static ALICE: OrderedMutex<Account, u64> = OrderedMutex::new(100);
static BOB: OrderedMutex<Account, u64> = OrderedMutex::new(0);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

fn main() {
    with_token(|token| {
        let (history, _at_history) = HISTORY.read(token);
        let (rate, _) = RATES.read(token); //~ ERROR E0499
        println!("{} {}", history.len(), *rate);
    });
    with_token(|token| {
        let (mut history, _at_history) = HISTORY.write(token);
        let (mut rate, _) = RATES.write(token); //~ ERROR E0499
        history.push(*rate);
        *rate += 1;
    });
    with_token(|token| {
        let (alice, bob, _at_account) = ALICE.lock_both(&BOB, token).expect("two accounts");
        let (rate, _) = RATES.read(token); //~ ERROR E0499
        println!("{} {} {}", *alice, *bob, *rate);
    });
}
