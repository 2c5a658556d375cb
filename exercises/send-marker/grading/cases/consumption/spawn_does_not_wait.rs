//! Proves consumption: `spawn` returns as soon as the thread is started,
//! while the work is still running. The work waits for a flag (shared
//! through an `Arc<AtomicBool>` in the payload) that the caller raises only
//! after `spawn` has returned: a `spawn` that waited for the work, or ran it
//! itself, makes the work give up waiting, always.
use crate::support::{Ended, drawn};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// How long the work waits for the flag: far longer than starting a thread
/// takes, so only a `spawn` that waits for the work can make it give up.
const PATIENCE_SECONDS: u64 = 5;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `None`: the payload or the result was not `Sendable`. Otherwise how
    /// `spawn` ended, and then what the work returned: the token, if it saw
    /// the flag before giving up.
    waited: Option<Ended<Option<u32>>>,
}

fn token(seed: Seed) -> u32 {
    drawn(seed, 0xf1a9, u32::MAX)
}

#[cfg(not(xsafe_judge))]
mod work {
    use super::PATIENCE_SECONDS;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
    use std::thread;
    use std::time::{Duration, Instant};

    /// Waits for the caller to raise the flag, then reads the token.
    pub fn wait_for_flag((flag, token): (Arc<AtomicBool>, Arc<AtomicU32>)) -> Option<u32> {
        let deadline = Instant::now() + Duration::from_secs(PATIENCE_SECONDS);
        while Instant::now() < deadline {
            if flag.load(Ordering::SeqCst) {
                return Some(token.load(Ordering::SeqCst));
            }
            thread::sleep(Duration::from_millis(1));
        }
        None
    }
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{caught, spawn_sendable};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

    let flag = Arc::new(AtomicBool::new(false));
    let shared_token = Arc::new(AtomicU32::new(0));
    let payload = (Arc::clone(&flag), Arc::clone(&shared_token));
    let waited = match caught(|| spawn_sendable!(payload, work::wait_for_flag)) {
        Ended::Returned(None) => None,
        Ended::Panicked(message) => Some(Ended::Panicked(message)),
        Ended::Returned(Some(handle)) => {
            shared_token.store(token(seed), Ordering::SeqCst);
            flag.store(true, Ordering::SeqCst);
            Some(caught(|| handle.join()))
        }
    };
    Seen { waited }
}

pub fn judge(seed: Seed, seen: Seen) {
    let waited = seen.waited.expect(
        "could not spawn a job on an `(Arc<AtomicBool>, Arc<AtomicU32>)` that returns an `Option<u32>`: these must be `Sendable`",
    );
    match waited {
        Ended::Returned(Some(seen_token)) => assert_eq!(
            seen_token,
            token(seed),
            "the work must see the values the caller stored after spawn returned"
        ),
        Ended::Returned(None) => panic!(
            "the work never saw the flag the caller raised right after spawn returned (it waited {PATIENCE_SECONDS} s): spawn must start the thread and return at once, not wait for the work to finish"
        ),
        Ended::Panicked(message) => panic!("spawning or joining the work panicked: {message}"),
    }
}
