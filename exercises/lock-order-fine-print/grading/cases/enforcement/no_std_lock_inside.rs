//! Proves enforcement: the `std` locks inside the ordered ones cannot be
//! reached. No `Deref` to the inner `Mutex` or `RwLock` (which would let
//! `ACCOUNT.lock()` lock without a token), no `AsRef` and no `Borrow`: the
//! only ways to lock are the traits that take a token.
use lock_order_fine_print::bank::{Accounts, History};
use lock_order_fine_print::{OrderedMutex, OrderedRwLock};
use std::borrow::Borrow;
use std::sync::{Mutex, RwLock};

static ACCOUNT: OrderedMutex<Accounts, u64> = OrderedMutex::new(100);
static HISTORY: OrderedRwLock<History, Vec<u64>> = OrderedRwLock::new(Vec::new());

fn main() {
    let account: &Mutex<u64> = &ACCOUNT; //~ ERROR E0308
    let history: &RwLock<Vec<u64>> = &HISTORY; //~ ERROR E0308
    let balance = ACCOUNT.lock(); //~ ERROR E0599|E0061
    let entries = HISTORY.write(); //~ ERROR E0599|E0061
    let as_ref: &Mutex<u64> = ACCOUNT.as_ref(); //~ ERROR E0599|E0277
    let borrowed: &RwLock<Vec<u64>> = HISTORY.borrow(); //~ ERROR E0308|E0277
    drop((account, history, balance, entries, as_ref, borrowed));
}
