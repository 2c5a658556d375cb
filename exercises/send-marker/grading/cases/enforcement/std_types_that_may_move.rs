//! Proves enforcement: the std types that std itself lets move to another
//! thread are `Sendable` (primitives, strings, atomics, shared references to
//! `Sync` data, exclusive references), and compound types are `Sendable`
//! when what they hold is: tuples, arrays, boxes, vectors, options, results,
//! cells, locks, `Arc` and channel ends.
use crate::support::assert_sendable;
use std::cell::{Cell, RefCell};
use std::marker::PhantomData;
use std::sync::atomic::{AtomicBool, AtomicUsize};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[test]
fn primitives_and_strings() {
    assert_sendable!(());
    assert_sendable!(bool);
    assert_sendable!(char);
    assert_sendable!(u8);
    assert_sendable!(u16);
    assert_sendable!(u32);
    assert_sendable!(u64);
    assert_sendable!(u128);
    assert_sendable!(usize);
    assert_sendable!(i8);
    assert_sendable!(i16);
    assert_sendable!(i32);
    assert_sendable!(i64);
    assert_sendable!(i128);
    assert_sendable!(isize);
    assert_sendable!(f32);
    assert_sendable!(f64);
    assert_sendable!(str);
    assert_sendable!(String);
    assert_sendable!(Duration);
    assert_sendable!(AtomicBool);
    assert_sendable!(AtomicUsize);
}

#[test]
fn shared_references_to_sync_data() {
    assert_sendable!(&'static str);
    assert_sendable!(&'static u64);
    assert_sendable!(&'static [u8]);
    assert_sendable!(&'static Mutex<Vec<u8>>);
    assert_sendable!(&'static AtomicUsize);
}

#[test]
fn exclusive_references() {
    assert_sendable!(&'static mut u8);
    assert_sendable!(&'static mut Vec<String>);
    // A `Cell` may move with its only reference; only sharing it is unsound.
    assert_sendable!(&'static mut Cell<u8>);
}

#[test]
fn owning_containers_when_their_elements_are() {
    assert_sendable!(Box<u8>);
    assert_sendable!(Box<str>);
    assert_sendable!(Vec<String>);
    assert_sendable!(Vec<Vec<u8>>);
    assert_sendable!(Option<Box<u32>>);
    assert_sendable!(Result<u8, String>);
    assert_sendable!([u16; 4]);
    assert_sendable!([String; 0]);
    assert_sendable!((u8,));
    assert_sendable!((u8, String));
    assert_sendable!((u8, char, bool));
    assert_sendable!((u8, char, bool, f64));
    assert_sendable!(PhantomData<String>);
}

#[test]
fn cells_locks_and_channels_when_their_contents_are() {
    assert_sendable!(Cell<u32>);
    assert_sendable!(RefCell<Vec<u8>>);
    assert_sendable!(Mutex<String>);
    assert_sendable!(Arc<String>);
    assert_sendable!(Arc<Mutex<Vec<u8>>>);
    assert_sendable!(Arc<AtomicBool>);
    assert_sendable!(Sender<String>);
    assert_sendable!(Receiver<(u8, String)>);
}
