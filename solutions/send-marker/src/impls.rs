//! Enforcement: which std types are [`Sendable`].
//!
//! Every impl in this file is a promise that the compiler takes on trust, so
//! each one is written to mean what std's own `Send` impl for the same type
//! means, under the same conditions. To audit the whole property, read this
//! file and the derive; nothing else in the course implements the trait.
//!
//! Deliberately absent:
//!
//! * `Rc<T>` and `rc::Weak<T>`: clones share a reference count that is
//!   updated without synchronisation, so moving one clone to another thread
//!   lets two threads race on the count.
//! * `&T` when `T` is not `Sync`, such as `&Cell<u8>` or `&RefCell<u8>`: a
//!   shared reference on another thread lets two threads use the same `T` at
//!   once, which a `Cell` does not allow.
//! * `*const T`, `*mut T` and `NonNull<T>`: a raw pointer carries no promise
//!   about what it points to. A type that holds one must make its own
//!   promise, with its own `unsafe impl`.
//! * guards such as `MutexGuard`, which must be released by the thread that
//!   took the lock.

use crate::Sendable;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::marker::PhantomData;
use std::sync::atomic::{
    AtomicBool, AtomicI8, AtomicI16, AtomicI32, AtomicI64, AtomicIsize, AtomicU8, AtomicU16,
    AtomicU32, AtomicU64, AtomicUsize,
};
use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{Arc, Mutex, RwLock};

/// Types that own no pointer, no handle to anything else, and have no
/// invariant tied to the thread that made them: moving one is moving bytes.
macro_rules! plain_values {
    ($($ty:ty),* $(,)?) => {
        $(
            // SAFETY: a value of this type is plain data with no tie to a
            // thread; std implements `Send` for it unconditionally.
            unsafe impl Sendable for $ty {}
        )*
    };
}

plain_values!(
    (),
    bool,
    char,
    u8,
    u16,
    u32,
    u64,
    u128,
    usize,
    i8,
    i16,
    i32,
    i64,
    i128,
    isize,
    f32,
    f64,
    str,
    String,
    std::time::Duration,
    std::time::Instant,
    std::hash::RandomState,
);

/// Atomics are built to be used from several threads at once.
macro_rules! atomics {
    ($($ty:ty),* $(,)?) => {
        $(
            // SAFETY: an atomic is `Send` and `Sync` in std: every access
            // to it is synchronised.
            unsafe impl Sendable for $ty {}
        )*
    };
}

atomics!(
    AtomicBool,
    AtomicU8,
    AtomicU16,
    AtomicU32,
    AtomicU64,
    AtomicUsize,
    AtomicI8,
    AtomicI16,
    AtomicI32,
    AtomicI64,
    AtomicIsize,
);

// SAFETY: a `&T` on another thread lets that thread read the `T` while this
// one still can: sound exactly when `T` may be shared between threads, which
// is what `Sync` promises. std has the same rule (`&T: Send` iff `T: Sync`).
unsafe impl<T: ?Sized + Sync> Sendable for &T {}

// SAFETY: a `&mut T` is the only access to the `T` while it lives, so moving
// it moves the use of the `T`: sound when the `T` itself may move.
unsafe impl<T: ?Sized + Sendable> Sendable for &mut T {}

/// Containers that own their elements and nothing else that is tied to a
/// thread: moving the container moves the elements with it.
macro_rules! owning_containers {
    ($($container:ident<$($param:ident),+>),* $(,)?) => {
        $(
            // SAFETY: the container owns its elements and shares them with
            // nobody, so moving it is moving them: sound when each of them
            // may move. std's `Send` impl has the same bounds.
            unsafe impl<$($param: Sendable),+> Sendable for $container<$($param),+> {}
        )*
    };
}

owning_containers!(
    Vec<T>,
    VecDeque<T>,
    Option<T>,
    Result<T, E>,
    BTreeMap<K, V>,
    BTreeSet<T>,
    HashMap<K, V>,
    HashSet<T>,
);

// SAFETY: a box owns its contents alone, like a container of one element.
unsafe impl<T: ?Sized + Sendable> Sendable for Box<T> {}

// SAFETY: an array or a slice is its elements.
unsafe impl<T: Sendable, const N: usize> Sendable for [T; N] {}
// SAFETY: as for arrays.
unsafe impl<T: Sendable> Sendable for [T] {}

// SAFETY: `PhantomData<T>` holds nothing, but says that the type owns a `T`;
// it is `Sendable` when the `T` it stands for is, so that a type can opt out
// by holding `PhantomData<Rc<()>>` or `PhantomData<*const ()>`.
unsafe impl<T: ?Sized + Sendable> Sendable for PhantomData<T> {}

// SAFETY: a `Cell` may move with its value; it is only its *sharing* across
// threads that is unsound, and `&Cell<T>` is not `Sendable` (not `Sync`).
unsafe impl<T: ?Sized + Sendable> Sendable for Cell<T> {}
// SAFETY: as for `Cell`: the borrow flag moves with the value.
unsafe impl<T: ?Sized + Sendable> Sendable for RefCell<T> {}

// SAFETY: a mutex owns its value and hands it to one thread at a time; moving
// the mutex moves the value. std: `Mutex<T>: Send` iff `T: Send`.
unsafe impl<T: ?Sized + Sendable> Sendable for Mutex<T> {}
// SAFETY: as for `Mutex`. std: `RwLock<T>: Send` iff `T: Send`.
unsafe impl<T: ?Sized + Sendable> Sendable for RwLock<T> {}

// SAFETY: clones of an `Arc` on several threads share the `T` (so it must be
// `Sync`), and whichever thread drops the last clone drops the `T` (so it
// must be allowed to move). The count itself is atomic. std: `Arc<T>: Send`
// iff `T: Send + Sync`.
unsafe impl<T: ?Sized + Sendable + Sync> Sendable for Arc<T> {}

// SAFETY: channel ends are made to be moved to other threads; the messages
// they carry move through them, so they must be allowed to move.
unsafe impl<T: Sendable> Sendable for Sender<T> {}
// SAFETY: as for `Sender`.
unsafe impl<T: Sendable> Sendable for SyncSender<T> {}
// SAFETY: as for `Sender`.
unsafe impl<T: Sendable> Sendable for Receiver<T> {}

/// Tuples of up to twelve elements, like std's trait impls for tuples.
macro_rules! tuples {
    ($($name:ident)+) => {
        // SAFETY: a tuple is its elements.
        unsafe impl<$($name: Sendable),+> Sendable for ($($name,)+) {}
    };
}

tuples!(A);
tuples!(A B);
tuples!(A B C);
tuples!(A B C D);
tuples!(A B C D E);
tuples!(A B C D E F);
tuples!(A B C D E F G);
tuples!(A B C D E F G H);
tuples!(A B C D E F G H I);
tuples!(A B C D E F G H I J);
tuples!(A B C D E F G H I J K);
tuples!(A B C D E F G H I J K L);
