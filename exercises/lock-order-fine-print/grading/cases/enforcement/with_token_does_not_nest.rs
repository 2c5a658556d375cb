//! Proves enforcement: `with_token` cannot be nested by accident. A call
//! inside another on the same thread panics instead of lending a second root
//! token, whatever the outer call holds; the thread gets its token back once
//! the outer call returns, even if the closure panicked; and every thread
//! has a token of its own.
use lock_order_fine_print::with_token;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::thread;

#[test]
fn a_nested_call_panics() {
    let nested = with_token(|_outer| catch_unwind(|| with_token(|_inner| ())));
    assert!(
        nested.is_err(),
        "with_token inside with_token must panic, not lend a second root token"
    );
}

#[test]
fn the_token_comes_back_after_a_panic() {
    let panicked = catch_unwind(AssertUnwindSafe(|| {
        with_token(|_token| panic!("the closure fails"));
    }));
    assert!(panicked.is_err());
    assert_eq!(with_token(|_token| 7), 7, "the thread may start again");
    assert_eq!(with_token(|_token| 8), 8, "one call after another is fine");
}

#[test]
fn each_thread_has_its_own_token() {
    with_token(|_token| {
        let other = thread::spawn(|| with_token(|_token| 5));
        assert_eq!(other.join().expect("another thread has its own token"), 5);
    });
}
