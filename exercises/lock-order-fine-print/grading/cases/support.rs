//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the behaviour tests.
#![allow(dead_code)]

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

/// Runs `work` on a thread of its own and returns what it returns, or fails
/// the test if it has not finished after `seconds`: a deadlock fails the
/// case instead of hanging the grader. A panic in `work` fails the test with
/// the same message.
pub fn within<R: Send + 'static>(seconds: u64, work: impl FnOnce() -> R + Send + 'static) -> R {
    let (done, finished) = mpsc::channel();
    let worker = thread::spawn(move || {
        let result = work();
        let _ = done.send(());
        result
    });
    match finished.recv_timeout(Duration::from_secs(seconds)) {
        Ok(()) => worker.join().expect("the work finished"),
        Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
            Ok(_) => unreachable!("the work returned without reporting"),
            Err(panic) => std::panic::resume_unwind(panic),
        },
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("still running after {seconds} s: do some threads wait for each other's locks?")
        }
    }
}
