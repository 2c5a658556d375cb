//! Proves consumption: a panic in the work stays on the worker's thread
//! until the caller joins, and then resumes in the caller with its own
//! message: `spawn` itself returns normally, and `join` neither swallows the
//! panic nor replaces it with a message of its own. The message carries a
//! code drawn from the judge's seed. The payload owns heap memory (a
//! `Vec<String>`) that the work takes by value before it panics, and the
//! case runs under Miri too: a `spawn` that drops the payload again while
//! the panic unwinds is a double free Miri reports.
use crate::support::{Ended, drawn};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    /// `None`: `Vec<String>` is not `Sendable` yet. Otherwise how `spawn`
    /// ended, then, if it returned, how `join` did.
    spawned: Option<Ended<Ended<u32>>>,
}

fn code(seed: Seed) -> u32 {
    drawn(seed, 0xc0de, u32::MAX)
}

fn message(code: u32) -> String {
    format!("the work failed with code {code}")
}

#[cfg(not(xsafe_judge))]
fn explode(parts: Vec<String>) -> u32 {
    let code: u32 = parts.concat().parse().unwrap_or(0);
    drop(parts);
    std::panic::panic_any(message(code))
}

#[cfg(not(xsafe_judge))]
pub fn observe(seed: Seed) -> Seen {
    use crate::support::{caught, spawn_sendable};

    let code = code(seed).to_string();
    let (left, right) = code.split_at(code.len() / 2);
    let parts = vec![left.to_owned(), right.to_owned()];
    let spawned = match caught(|| spawn_sendable!(parts, explode)) {
        Ended::Returned(None) => None,
        Ended::Panicked(message) => Some(Ended::Panicked(message)),
        Ended::Returned(Some(handle)) => Some(Ended::Returned(caught(|| handle.join()))),
    };
    Seen { spawned }
}

pub fn judge(seed: Seed, seen: Seen) {
    let spawned = seen
        .spawned
        .expect("could not spawn a job on a `Vec<String>`: `Vec<String>` must be `Sendable`");
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
