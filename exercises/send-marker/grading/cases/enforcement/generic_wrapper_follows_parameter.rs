//! Proves enforcement: a derived generic type is `Sendable` exactly when its
//! type parameters are. `Labeled<u32>` may move; `Labeled<Rc<u32>>` may not.
#![allow(dead_code)] // The types below are only asked about, never built.

use crate::support::{assert_not_sendable, assert_sendable};
use send_marker::Sendable;
use std::rc::Rc;

#[derive(Sendable)]
struct Labeled<T> {
    label: String,
    value: T,
}

#[derive(Sendable)]
enum Either<L, R> {
    Left(L),
    Right(R),
}

#[test]
fn a_wrapper_of_sendable_types_is_sendable() {
    assert_sendable!(Labeled<u32>);
    assert_sendable!(Labeled<Vec<String>>);
    assert_sendable!(Either<u8, String>);
    assert_sendable!(Labeled<Either<u8, Labeled<char>>>);
}

#[test]
fn a_wrapper_of_anything_else_is_not() {
    assert_not_sendable!(Labeled<Rc<u32>>);
    assert_not_sendable!(Labeled<*const u8>);
    assert_not_sendable!(Either<u8, Rc<u8>>);
    assert_not_sendable!(Either<Rc<u8>, u8>);
    assert_not_sendable!(Labeled<Labeled<Rc<u32>>>);
}
