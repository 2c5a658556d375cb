//! Proves enforcement: `lock_both` locks both mutexes and returns their
//! guards in the order the caller named them, whichever it locked first, and
//! a token at their level that locks the levels after it.
use lock_order_fine_print::{Lock, LockBoth, OrderedMutex, impl_lock_after, with_token};

enum Account {}
enum Tally {}

impl_lock_after!(Unlocked => Account);
impl_lock_after!(Account => Tally);

#[test]
fn guards_come_back_in_the_order_named() {
    let accounts = [
        OrderedMutex::<Account, u64>::new(1),
        OrderedMutex::<Account, u64>::new(2),
    ];
    let tally = OrderedMutex::<Tally, u64>::new(0);
    with_token(|token| {
        for (first, second) in [(0, 1), (1, 0)] {
            let (a, b, mut at_account) = accounts[first]
                .lock_both(&accounts[second], token)
                .expect("two different accounts");
            assert_eq!((*a, *b), (first as u64 + 1, second as u64 + 1));
            let (mut count, _) = tally.lock(&mut at_account);
            *count += 1;
        }
    });
    assert_eq!(tally.into_inner(), 2);
}
