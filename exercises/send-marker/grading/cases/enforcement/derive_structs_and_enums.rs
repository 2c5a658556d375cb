//! Proves enforcement: `#[derive(Sendable)]` implements the trait for structs
//! (named, tuple and unit), enums, recursive types, and types with
//! lifetimes, const parameters and `where` clauses, whenever every field's
//! type is `Sendable`.
#![allow(dead_code)] // The types below are only asked about, never built.

use crate::support::assert_sendable;
use send_marker::Sendable;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

#[derive(Sendable)]
struct Order {
    id: u32,
    customer: String,
    items: Vec<(String, u16)>,
}

#[derive(Sendable)]
struct Rgb(u8, u8, u8);

#[derive(Sendable)]
struct Stop;

#[derive(Sendable)]
enum Command {
    Quit,
    Move { x: i32, y: i32 },
    Say(String),
    Batch(Vec<Command>),
}

#[derive(Sendable)]
struct Chain {
    value: u64,
    next: Option<Box<Chain>>,
}

#[derive(Sendable)]
struct Named<'a> {
    name: &'a str,
}

#[derive(Sendable)]
struct Frame<const N: usize> {
    bytes: [u8; N],
}

#[derive(Sendable)]
struct Tally<T>
where
    T: Clone + Default,
{
    value: T,
    count: usize,
}

#[derive(Sendable)]
struct Shared {
    log: Arc<Mutex<Vec<String>>>,
    done: Arc<AtomicBool>,
}

#[test]
fn structs_of_every_shape() {
    assert_sendable!(Order);
    assert_sendable!(Rgb);
    assert_sendable!(Stop);
    assert_sendable!(Shared);
}

#[test]
fn enums_and_recursive_types() {
    assert_sendable!(Command);
    assert_sendable!(Chain);
}

#[test]
fn lifetimes_const_parameters_and_where_clauses() {
    assert_sendable!(Named<'static>);
    assert_sendable!(Frame<16>);
    assert_sendable!(Tally<String>);
}
