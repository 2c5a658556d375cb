//! Proves enforcement: the std types that std itself lets move to another
//! thread are `Sendable` (primitives, strings, atomics, shared references to
//! `Sync` data, exclusive references), and compound types are `Sendable`
//! when what they hold is: tuples, arrays, boxes, vectors, options, results,
//! cells, locks, `Arc` and channel ends. The compiler answers for each type
//! in the observing program; the judge requires every answer to be yes.
use crate::support::{Answers, assert_all_sendable, sendable_probes};
use serde::{Deserialize, Serialize};
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use xsafe_case::Seed;

sendable_probes! {
    mod plain {
        (), bool, char, u8, u16, u32, u64, u128, usize, i8, i16, i32, i64, i128, isize,
        f32, f64, str, String, Duration, AtomicBool, AtomicUsize,
    }
}

sendable_probes! {
    mod shared_references {
        &'static str, &'static u64, &'static [u8], &'static Mutex<Vec<u8>>,
        &'static AtomicUsize,
    }
}

sendable_probes! {
    mod exclusive_references {
        &'static mut u8, &'static mut Vec<String>,
        // A `Cell` may move with its only reference; only sharing it is unsound.
        &'static mut Cell<u8>,
    }
}

sendable_probes! {
    mod containers {
        Box<u8>, Box<str>, Vec<String>, Vec<Vec<u8>>, Option<Box<u32>>, Result<u8, String>,
        [u16; 4], [String; 0], (u8,), (u8, String), (u8, char, bool), (u8, char, bool, f64),
        PhantomData<String>,
    }
}

sendable_probes! {
    mod cells_locks_channels {
        Cell<u32>, RefCell<Vec<u8>>, Mutex<String>,
        // A mutex hands its value to one thread at a time: it may hold a `Cell`.
        Mutex<Cell<u8>>, Arc<String>, Arc<Mutex<Vec<u8>>>, Arc<AtomicBool>,
        Sender<String>, Receiver<(u8, String)>,
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    plain: Answers,
    shared_references: Answers,
    exclusive_references: Answers,
    containers: Answers,
    cells_locks_channels: Answers,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    Seen {
        plain: plain::answers(),
        shared_references: shared_references::answers(),
        exclusive_references: exclusive_references::answers(),
        containers: containers::answers(),
        cells_locks_channels: cells_locks_channels::answers(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_all_sendable(
        plain::NAMES,
        &seen.plain,
        "a primitive, a string, a `Duration` or an atomic is plain data that std lets move unconditionally",
    );
    assert_all_sendable(
        shared_references::NAMES,
        &seen.shared_references,
        "a `&T` may move when `T` may be shared between threads (`T: Sync`), as std's `&T: Send` says",
    );
    assert_all_sendable(
        exclusive_references::NAMES,
        &seen.exclusive_references,
        "a `&mut T` is the only access to its `T`, so it may move when the `T` may",
    );
    assert_all_sendable(
        containers::NAMES,
        &seen.containers,
        "a container that owns its elements may move when they may (tuples, arrays, `Box`, `Vec`, `Option`, `Result`, `PhantomData`)",
    );
    assert_all_sendable(
        cells_locks_channels::NAMES,
        &seen.cells_locks_channels,
        "cells and locks move with their contents, `Arc<T>` needs `T: Sendable + Sync`, and channel ends need their messages to be `Sendable`",
    );
}
