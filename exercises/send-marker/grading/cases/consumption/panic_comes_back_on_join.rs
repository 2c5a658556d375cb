//! Proves consumption: a panic in the work stays on the worker's thread
//! until the caller joins, and then resumes in the caller with its own
//! message: `spawn` itself returns normally, and `join` neither swallows the
//! panic nor replaces it with a message of its own. The message carries a
//! code drawn from the judge's seed.
use crate::support::{Ended, drawn};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `None`: `u32` is not `Sendable` yet. Otherwise how `spawn` ended,
    /// then, if it returned, how `join` did.
    spawned: Option<Ended<Ended<u32>>>,
}

fn code(seed: Seed) -> u32 {
    drawn(seed, 0xc0de, u32::MAX)
}

fn message(code: u32) -> String {
    format!("the work failed with code {code}")
}

#[cfg(not(xsafe_judge))]
fn explode(code: u32) -> u32 {
    std::panic::panic_any(message(code))
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{caught, spawn_sendable};

    let spawned = match caught(|| spawn_sendable!(code(seed), explode)) {
        Ended::Returned(None) => None,
        Ended::Panicked(message) => Some(Ended::Panicked(message)),
        Ended::Returned(Some(handle)) => Some(Ended::Returned(caught(|| handle.join()))),
    };
    Seen { spawned }
}

pub fn judge(seed: Seed, seen: Seen) {
    let spawned = seen
        .spawned
        .expect("could not spawn a job on a `u32`: `u32` must be `Sendable`");
    let joined = match spawned {
        Ended::Returned(joined) => joined,
        Ended::Panicked(message) => panic!(
            "spawn itself panicked ({message}): the work must run on the new thread, and its panic stay there until join"
        ),
    };
    match joined {
        Ended::Panicked(message) => assert_eq!(
            message,
            message_for(seed),
            "join must resume the work's own panic, with its payload, not a panic of its own"
        ),
        Ended::Returned(value) => panic!(
            "join returned {value} although the work panicked: the panic must come back to the caller"
        ),
    }
}

fn message_for(seed: Seed) -> String {
    message(code(seed))
}
