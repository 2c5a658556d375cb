//! Proves enforcement: `lock_both` with the same mutex twice is refused,
//! with `SameLock`, instead of deadlocking on the second lock; the mutex is
//! left unlocked.
use lock_order_fine_print::{Lock, LockBoth, OrderedMutex, SameLock, impl_lock_after, with_token};

enum Account {}

impl_lock_after!(Unlocked => Account);

#[test]
fn the_same_mutex_twice_is_refused() {
    let refused = crate::support::within(10, || {
        let alice = OrderedMutex::<Account, u64>::new(100);
        with_token(|token| {
            let refused = alice.lock_both(&alice, token).err();
            let (balance, _) = alice.lock(token);
            (refused, *balance)
        })
    });
    assert_eq!(refused, (Some(SameLock), 100));
}
