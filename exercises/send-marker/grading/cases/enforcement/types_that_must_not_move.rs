//! Proves enforcement: no impl grants the property where std's `Send` would
//! not hold. `Rc` and `rc::Weak` (their count is not atomic), shared
//! references to `Cell`s and `RefCell`s (not `Sync`), raw pointers and
//! `NonNull`, and lock and borrow guards are not `Sendable`; neither is any
//! compound type that holds one of them, whether the course asks for its
//! impl or a solution may add it (`[surface] allow`); and an `Arc` or a
//! `sync::Weak` is not `Sendable` unless what it shares is both `Sync` and
//! `Sendable` (a `MutexGuard` is `Sync`, but must not move). The
//! compiler answers for each type in the observing program, route by
//! route; the judge requires every answer to be no, after a control that
//! shows the probe can say yes.
use crate::support::{Answers, assert_all_sendable, assert_none_sendable, sendable_probes};
use serde::{Deserialize, Serialize};
use std::cell::{Cell, OnceCell, Ref, RefCell, RefMut, UnsafeCell};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap, HashSet, LinkedList, VecDeque};
use std::marker::PhantomData;
use std::mem::ManuallyDrop;
use std::num::{Saturating, Wrapping};
use std::ptr::NonNull;
use std::rc::{self, Rc};
use std::sync::mpsc::{Receiver, Sender, SyncSender};
use std::sync::{
    self, Arc, Mutex, MutexGuard, OnceLock, RwLock, RwLockReadGuard, RwLockWriteGuard,
};
use xsafe_case::Seed;

sendable_probes! {
    /// If these were not found `Sendable`, every refusal below would prove
    /// nothing.
    mod controls {
        u8, Vec<u8>, &'static u8,
    }
}

sendable_probes! {
    mod reference_counts {
        Rc<u8>, Rc<String>, Rc<[u8]>, rc::Weak<u8>,
    }
}

sendable_probes! {
    mod shared_references_to_unsynced {
        &'static Cell<u8>, &'static RefCell<String>, &'static Rc<u8>,
        &'static UnsafeCell<u8>, &'static OnceCell<u8>, &'static [Cell<u8>],
    }
}

sendable_probes! {
    mod raw_pointers {
        *const u8, *mut u8, *const str, NonNull<u8>, NonNull<[u8]>,
    }
}

sendable_probes! {
    mod guards {
        MutexGuard<'static, u8>, RwLockReadGuard<'static, u8>, RwLockWriteGuard<'static, u8>,
        Ref<'static, u8>, RefMut<'static, u8>,
    }
}

sendable_probes! {
    mod holders {
        Vec<Rc<u8>>, VecDeque<Rc<u8>>, Option<Rc<u8>>, Result<u8, Rc<u8>>,
        Result<Rc<u8>, u8>, Box<Rc<u8>>, Box<[Rc<u8>]>, [Rc<u8>; 2], [Rc<u8>],
        (Rc<u8>,), (u8, Rc<u8>), (Rc<u8>, u8, u8), (u8, u8, u8, *const u8),
        PhantomData<Rc<u8>>, PhantomData<*const u8>, Cell<Rc<u8>>, RefCell<Rc<u8>>,
        Mutex<Rc<u8>>, RwLock<Rc<u8>>, Sender<Rc<u8>>, SyncSender<Rc<u8>>,
        Receiver<Rc<u8>>, &'static mut Rc<u8>, &'static mut *const u8,
        HashMap<u8, Rc<u8>>, HashMap<Rc<u8>, u8>, HashSet<Rc<u8>>,
        BTreeMap<u8, Rc<u8>>, BTreeMap<Rc<u8>, u8>, BTreeSet<Rc<u8>>,
        Option<Vec<(u8, Rc<u8>)>>,
    }
}

sendable_probes! {
    /// Types a solution may add impls for (the manifest's `[surface]
    /// allow`): each must follow what it holds.
    mod allowed_holders {
        LinkedList<Rc<u8>>, BinaryHeap<Rc<u8>>, Wrapping<Rc<u8>>, Saturating<Rc<u8>>,
        Reverse<Rc<u8>>, ManuallyDrop<Rc<u8>>, UnsafeCell<Rc<u8>>, OnceCell<Rc<u8>>,
        OnceLock<Rc<u8>>, sync::Weak<Rc<u8>>,
    }
}

sendable_probes! {
    mod shared_by_arc {
        Arc<Cell<u8>>, Arc<RefCell<u8>>, Arc<Rc<u8>>, Arc<*const u8>,
        sync::Weak<Cell<u8>>, Arc<UnsafeCell<u8>>,
        // `Sync` but not `Sendable`: the last clone to go drops it, on
        // whichever thread that is.
        Arc<MutexGuard<'static, u8>>, sync::Weak<MutexGuard<'static, u8>>,
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    controls: Answers,
    reference_counts: Answers,
    shared_references_to_unsynced: Answers,
    raw_pointers: Answers,
    guards: Answers,
    holders: Answers,
    allowed_holders: Answers,
    shared_by_arc: Answers,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    Seen {
        controls: controls::answers(),
        reference_counts: reference_counts::answers(),
        shared_references_to_unsynced: shared_references_to_unsynced::answers(),
        raw_pointers: raw_pointers::answers(),
        guards: guards::answers(),
        holders: holders::answers(),
        allowed_holders: allowed_holders::answers(),
        shared_by_arc: shared_by_arc::answers(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_all_sendable(
        controls::NAMES,
        &seen.controls,
        "this case asks the compiler about types it must refuse, and its answers mean nothing until it can say yes for these",
    );
    assert_none_sendable(
        reference_counts::NAMES,
        &seen.reference_counts,
        "clones of an `Rc` share a count that is changed without synchronisation, so two threads could race on it",
    );
    assert_none_sendable(
        shared_references_to_unsynced::NAMES,
        &seen.shared_references_to_unsynced,
        "a `&T` on another thread shares the `T` with this one, which is sound only when `T: Sync`, and these are not",
    );
    assert_none_sendable(
        raw_pointers::NAMES,
        &seen.raw_pointers,
        "a raw pointer promises nothing about what it points to: a type that holds one makes its own promise with its own `unsafe impl`",
    );
    assert_none_sendable(
        guards::NAMES,
        &seen.guards,
        "a guard belongs to the thread that took the lock or the borrow",
    );
    assert_none_sendable(
        holders::NAMES,
        &seen.holders,
        "a compound type moves what it holds, so it may move only when every part may",
    );
    assert_none_sendable(
        allowed_holders::NAMES,
        &seen.allowed_holders,
        "an impl a solution adds for a std container must have std's bounds: it moves what it holds",
    );
    assert_none_sendable(
        shared_by_arc::NAMES,
        &seen.shared_by_arc,
        "clones of an `Arc` share their contents between threads, and the last one to go drops them on its own thread, so `Arc<T>` (and `sync::Weak<T>`) needs `T: Sync` and `T: Sendable`",
    );
}
