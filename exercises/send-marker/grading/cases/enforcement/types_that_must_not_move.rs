//! Proves enforcement: no impl grants the property where std's `Send` would
//! not hold. `Rc` (its count is not atomic), shared references to `Cell`s
//! and `RefCell`s (not `Sync`), raw pointers and lock guards are not
//! `Sendable`, and neither is any compound type that holds one of them.
use crate::support::{assert_not_sendable, assert_sendable};
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::ptr::NonNull;
use std::rc::{self, Rc};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard};

#[test]
fn the_probe_sees_sendable_types() {
    // A control: if `u8` were not found `Sendable`, every refusal below
    // would prove nothing.
    assert_sendable!(u8);
    assert_sendable!(Vec<u8>);
}

#[test]
fn reference_counts_that_are_not_atomic() {
    assert_not_sendable!(Rc<u8>);
    assert_not_sendable!(Rc<String>);
    assert_not_sendable!(rc::Weak<u8>);
}

#[test]
fn shared_references_to_data_that_is_not_sync() {
    assert_not_sendable!(&'static Cell<u8>);
    assert_not_sendable!(&'static RefCell<String>);
    assert_not_sendable!(&'static Rc<u8>);
}

#[test]
fn raw_pointers_and_guards() {
    assert_not_sendable!(*const u8);
    assert_not_sendable!(*mut u8);
    assert_not_sendable!(NonNull<u8>);
    assert_not_sendable!(MutexGuard<'static, u8>);
}

#[test]
fn compound_types_that_hold_one() {
    assert_not_sendable!(Vec<Rc<u8>>);
    assert_not_sendable!(Option<Rc<u8>>);
    assert_not_sendable!(Result<u8, Rc<u8>>);
    assert_not_sendable!(Box<Rc<u8>>);
    assert_not_sendable!((u8, Rc<u8>));
    assert_not_sendable!([Rc<u8>; 2]);
    assert_not_sendable!(PhantomData<Rc<u8>>);
    assert_not_sendable!(Mutex<Rc<u8>>);
    assert_not_sendable!(Sender<Rc<u8>>);
    assert_not_sendable!(&'static mut Rc<u8>);
    // An `Arc` shares its contents, so they must be `Sync` as well.
    assert_not_sendable!(Arc<Cell<u8>>);
    assert_not_sendable!(Arc<Rc<u8>>);
}
