//! Proves consumption: a panic in the work stays on the worker's thread
//! until the caller joins, and then resumes in the caller with its message.
use crate::support::spawn_sendable;
use std::panic::{self, AssertUnwindSafe};

fn explode(code: u32) -> u32 {
    panic!("the work failed with code {code}")
}

#[test]
fn join_resumes_the_panic_of_the_work() {
    let handle = spawn_sendable!(42u32, explode);
    let joined = panic::catch_unwind(AssertUnwindSafe(move || handle.join()));
    let panic = joined.expect_err("join must panic when the work panicked");
    let message = panic
        .downcast_ref::<String>()
        .map(String::as_str)
        .unwrap_or("(not a string)");
    assert_eq!(message, "the work failed with code 42");
}
