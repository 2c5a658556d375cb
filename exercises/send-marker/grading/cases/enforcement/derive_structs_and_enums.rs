//! Proves enforcement: `#[derive(Sendable)]` implements the trait for structs
//! (named, tuple and unit), enums, recursive types, and types with
//! lifetimes, const parameters and `where` clauses, whenever every field's
//! type is `Sendable`. The compiler answers for each type in the observing
//! program; the judge requires every answer to be yes.
use crate::support::{Answers, assert_all_sendable, sendable_probes};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The derived types: only the observing program has the derive.
#[cfg(not(xsafe_judge))]
#[allow(dead_code)] // The types are only asked about, never built.
mod types {
    use send_marker::Sendable;
    use std::cell::Cell;
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Mutex};

    #[derive(Sendable)]
    pub struct Order {
        id: u32,
        customer: String,
        items: Vec<(String, u16)>,
    }

    #[derive(Sendable)]
    pub struct Rgb(u8, u8, u8);

    #[derive(Sendable)]
    pub struct Stop;

    #[derive(Sendable)]
    pub enum Command {
        Quit,
        Move { x: i32, y: i32 },
        Say(String),
        Batch(Vec<Command>),
    }

    #[derive(Sendable)]
    pub enum Never {}

    #[derive(Sendable)]
    pub struct Chain {
        value: u64,
        next: Option<Box<Chain>>,
    }

    #[derive(Sendable)]
    pub struct Named<'a> {
        name: &'a str,
    }

    #[derive(Sendable)]
    pub struct Frame<const N: usize> {
        bytes: [u8; N],
    }

    #[derive(Sendable)]
    pub struct Tally<T>
    where
        T: Clone + Default,
    {
        value: T,
        count: usize,
    }

    #[derive(Sendable)]
    pub struct Shared {
        log: Arc<Mutex<Vec<String>>>,
        done: Arc<AtomicBool>,
    }

    /// A `Cell` may move with its owner: only sharing it is unsound.
    #[derive(Sendable)]
    pub struct Counter {
        hits: Cell<u64>,
    }
}

#[cfg(not(xsafe_judge))]
use types::*;

sendable_probes! {
    mod structs {
        Order, Rgb, Stop, Shared, Counter,
    }
}

sendable_probes! {
    mod enums_and_recursive_types {
        Command, Never, Chain,
    }
}

sendable_probes! {
    mod lifetimes_consts_and_where_clauses {
        Named<'static>, Frame<16>, Tally<String>,
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    structs: Answers,
    enums_and_recursive_types: Answers,
    lifetimes_consts_and_where_clauses: Answers,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    Seen {
        structs: structs::answers(),
        enums_and_recursive_types: enums_and_recursive_types::answers(),
        lifetimes_consts_and_where_clauses: lifetimes_consts_and_where_clauses::answers(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    let why =
        "every field of these types is `Sendable`, so `#[derive(Sendable)]` must implement it";
    assert_all_sendable(structs::NAMES, &seen.structs, why);
    assert_all_sendable(
        enums_and_recursive_types::NAMES,
        &seen.enums_and_recursive_types,
        why,
    );
    assert_all_sendable(
        lifetimes_consts_and_where_clauses::NAMES,
        &seen.lifetimes_consts_and_where_clauses,
        "the derive must keep the type's lifetimes, const parameters and `where` clause, and implement the trait when every field is `Sendable`",
    );
}
