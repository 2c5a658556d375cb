//! Proves the definition: a token at a level cannot lock a second mutex of
//! the same level. Holding one account, the thread cannot lock another one
//! on its own: which one comes first is not a matter of types.
use lock_order_fine_print::{Lock, OrderedMutex, impl_lock_after, with_token};

enum Account {}

impl_lock_after!(Unlocked => Account);

static ALICE: OrderedMutex<Account, u64> = OrderedMutex::new(100);
static BOB: OrderedMutex<Account, u64> = OrderedMutex::new(0);

fn main() {
    with_token(|token| {
        let (mut alice, mut at_account) = ALICE.lock(token);
        let (mut bob, _) = BOB.lock(&mut at_account); //~ ERROR E0277
        *alice -= 10;
        *bob += 10;
    });
}
