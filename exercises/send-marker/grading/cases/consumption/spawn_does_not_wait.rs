//! Proves consumption: `spawn` returns as soon as the thread is started,
//! while the work is still running: the caller can still talk to the work
//! (here through an `Arc<AtomicBool>` in the payload) before joining it.
use crate::support::spawn_sendable;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use std::time::{Duration, Instant};

/// Waits up to five seconds for the caller to raise the flag.
fn wait_for_flag(flag: Arc<AtomicBool>) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if flag.load(Ordering::SeqCst) {
            return true;
        }
        thread::sleep(Duration::from_millis(1));
    }
    false
}

#[test]
fn spawn_returns_while_the_work_runs() {
    let flag = Arc::new(AtomicBool::new(false));
    let handle = spawn_sendable!(Arc::clone(&flag), wait_for_flag);
    flag.store(true, Ordering::SeqCst);
    assert!(
        handle.join(),
        "the work never saw the flag, raised right after spawn returned: spawn must not wait for the work to finish"
    );
}
