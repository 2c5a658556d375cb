//! Proves enforcement: `lock_both` takes the mutex at the lower address
//! first, whatever order it is given them in, so two threads locking one
//! pair never hold one each. With the lower mutex held elsewhere, a thread
//! asking for (higher, lower) must wait holding nothing: another thread can
//! still lock the higher one.
use lock_order_fine_print::{Lock, LockBoth, OrderedMutex, impl_lock_after, with_token};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

enum Account {}

impl_lock_after!(Unlocked => Account);

#[test]
fn a_waiting_pair_holds_nothing() {
    let accounts = Arc::new([
        OrderedMutex::<Account, u64>::new(1),
        OrderedMutex::<Account, u64>::new(2),
    ]);
    // Both mutexes live in one array, so the first has the lower address.
    let (lower, higher) = (0, 1);
    assert!(std::ptr::from_ref(&accounts[lower]) < std::ptr::from_ref(&accounts[higher]));
    let (locked_lower, lower_is_held) = mpsc::channel();
    let (release_lower, released) = mpsc::channel::<()>();
    let holder = {
        let accounts = Arc::clone(&accounts);
        thread::spawn(move || {
            with_token(|token| {
                let (_lower, _) = accounts[lower].lock(token);
                locked_lower.send(()).expect("the test waits");
                let _ = released.recv();
            })
        })
    };
    lower_is_held
        .recv()
        .expect("the holder locked the lower mutex");
    let (starting, pair_started) = mpsc::channel();
    let pair = {
        let accounts = Arc::clone(&accounts);
        thread::spawn(move || {
            starting.send(()).expect("the test waits");
            with_token(|token| {
                let (a, b, _) = accounts[higher]
                    .lock_both(&accounts[lower], token)
                    .expect("two different mutexes");
                (*a, *b)
            })
        })
    };
    pair_started.recv().expect("the pair thread started");
    // Let the pair thread reach its wait.
    thread::sleep(Duration::from_millis(200));
    let (got_higher, higher_is_free) = mpsc::channel();
    {
        let accounts = Arc::clone(&accounts);
        thread::spawn(move || {
            with_token(|token| {
                let (higher, _) = accounts[higher].lock(token);
                let _ = got_higher.send(*higher);
            })
        });
    }
    let free = higher_is_free.recv_timeout(Duration::from_secs(5));
    release_lower.send(()).expect("the holder waits");
    holder.join().expect("the holder finished");
    assert_eq!(
        free,
        Ok(2),
        "the higher mutex was held while the lower one was awaited: lock_both locked in argument order"
    );
    assert_eq!(pair.join().expect("the pair thread finished"), (2, 1));
}
