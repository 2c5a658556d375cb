//! Proves enforcement: a pair of accounts is locked from a level before
//! theirs, never from their own. A thread that holds one account and locks
//! two more would order three locks of one level by its own choice, and
//! another thread may choose otherwise.
use lock_order_fine_print::{Lock, LockBoth, OrderedMutex, impl_lock_after, with_token};

enum Account {}

impl_lock_after!(Unlocked => Account);

static FEES: OrderedMutex<Account, u64> = OrderedMutex::new(0);
static ALICE: OrderedMutex<Account, u64> = OrderedMutex::new(100);
static BOB: OrderedMutex<Account, u64> = OrderedMutex::new(0);

fn main() {
    with_token(|token| {
        let (mut fees, mut at_account) = FEES.lock(token);
        let pair = ALICE.lock_both(&BOB, &mut at_account); //~ ERROR E0277
        if let Ok((mut alice, mut bob, _)) = pair {
            *alice -= 11;
            *bob += 10;
            *fees += 1;
        }
    });
}
