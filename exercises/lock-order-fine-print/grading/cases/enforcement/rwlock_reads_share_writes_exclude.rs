//! Proves enforcement: the ordered read-write lock is one. Readers on two
//! threads hold it at once, a writer's change is seen by the next reader,
//! and the token a read returns locks the levels after the lock's, as a
//! mutex's does.
use lock_order_fine_print::{
    Lock, OrderedMutex, OrderedRwLock, ReadLock, WriteLock, impl_lock_after, with_token,
};
use std::sync::{Arc, Barrier};
use std::thread;

enum Rates {}
enum Tally {}

impl_lock_after!(Unlocked => Rates);
impl_lock_after!(Rates => Tally);

#[test]
fn a_write_is_seen_by_the_next_read() {
    let rates = OrderedRwLock::<Rates, Vec<u64>>::new(vec![1]);
    with_token(|token| {
        {
            let (mut rates, _) = rates.write(token);
            rates.push(2);
        }
        let (rates, _) = rates.read(token);
        assert_eq!(*rates, [1, 2]);
    });
    assert_eq!(rates.into_inner(), [1, 2]);
}

#[test]
fn a_read_token_locks_later_levels() {
    let rates = OrderedRwLock::<Rates, u64>::new(3);
    let tally = OrderedMutex::<Tally, u64>::new(0);
    with_token(|token| {
        let (rate, mut at_rates) = rates.read(token);
        let (mut count, _) = tally.lock(&mut at_rates);
        *count += *rate;
    });
    assert_eq!(tally.into_inner(), 3);
}

#[test]
fn two_readers_hold_the_lock_at_once() {
    let rates = Arc::new(OrderedRwLock::<Rates, u64>::new(5));
    let both_reading = Arc::new(Barrier::new(2));
    let seen = crate::support::within(20, move || {
        let readers: Vec<_> = (0..2)
            .map(|_| {
                let (rates, both_reading) = (Arc::clone(&rates), Arc::clone(&both_reading));
                thread::spawn(move || {
                    with_token(|token| {
                        let (rate, _) = rates.read(token);
                        // Both threads get here only if both hold the read lock.
                        both_reading.wait();
                        *rate
                    })
                })
            })
            .collect();
        readers
            .into_iter()
            .map(|reader| reader.join().expect("a reader finished"))
            .sum::<u64>()
    });
    assert_eq!(seen, 10);
}
