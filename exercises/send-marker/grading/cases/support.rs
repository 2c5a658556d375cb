//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the behaviour tests.
//!
//! The cases ask the compiler whether a type is `Sendable` without making
//! the whole test binary fail to compile when it is not: `is_sendable!` and
//! `spawn_sendable!` choose, at compile time, between two methods of the
//! same name (a trick called autoref specialization), and report the answer
//! at run time. So a starter without impls still builds its tests, and each
//! test fails on its own, saying which type is missing.
#![allow(dead_code)]

use send_marker::{Handle, Sendable};
use std::cell::Cell;
use std::marker::PhantomData;

/// A type, to ask about. See [`is_sendable!`].
pub struct Probe<T: ?Sized>(pub PhantomData<T>);

/// Found first, through `&Probe<T>`, when `T: Sendable`.
pub trait ProbeSendable {
    fn is_sendable(&self) -> bool {
        true
    }
}

impl<T: ?Sized + Sendable> ProbeSendable for Probe<T> {}

/// Found otherwise, one auto-reference further.
pub trait ProbeOther {
    fn is_sendable(&self) -> bool {
        false
    }
}

impl<T: ?Sized> ProbeOther for &Probe<T> {}

/// `is_sendable!(Type)`: whether `Type: Sendable`, decided by the compiler.
macro_rules! is_sendable {
    ($ty:ty) => {{
        #[allow(unused_imports)]
        use $crate::support::{ProbeOther as _, ProbeSendable as _};
        #[allow(clippy::needless_borrow)]
        let answer = (&$crate::support::Probe::<$ty>(::std::marker::PhantomData)).is_sendable();
        answer
    }};
}
pub(crate) use is_sendable;

/// `assert_sendable!(Type)`: fails, naming the type, unless `Type: Sendable`.
macro_rules! assert_sendable {
    ($ty:ty) => {
        assert!(
            $crate::support::is_sendable!($ty),
            "`{}` must be `Sendable`",
            stringify!($ty)
        )
    };
}
pub(crate) use assert_sendable;

/// `assert_not_sendable!(Type)`: fails, naming the type, if `Type: Sendable`.
macro_rules! assert_not_sendable {
    ($ty:ty) => {
        assert!(
            !$crate::support::is_sendable!($ty),
            "`{}` must not be `Sendable`",
            stringify!($ty)
        )
    };
}
pub(crate) use assert_not_sendable;

/// What `send_marker::spawn` takes: a payload and the work to run on it.
type Parts<T, R> = (T, fn(T) -> R);

/// A job to start with `send_marker::spawn`. See [`spawn_sendable!`].
pub struct Job<T, R> {
    parts: Cell<Option<Parts<T, R>>>,
}

impl<T, R> Job<T, R> {
    pub fn new(payload: T, work: fn(T) -> R) -> Self {
        Job {
            parts: Cell::new(Some((payload, work))),
        }
    }
}

/// Found first, through `&Job<T, R>`, when the payload and the result are
/// `Sendable`: it calls `send_marker::spawn`.
pub trait StartSendable<R> {
    fn start(&self) -> Option<Handle<R>>;
}

impl<T: Sendable + 'static, R: Sendable + 'static> StartSendable<R> for Job<T, R> {
    fn start(&self) -> Option<Handle<R>> {
        let (payload, work) = self.parts.take()?;
        Some(send_marker::spawn(payload, work))
    }
}

/// Found otherwise: the job cannot be spawned.
pub trait StartOther<R> {
    fn start(&self) -> Option<Handle<R>> {
        None
    }
}

impl<T, R> StartOther<R> for &Job<T, R> {}

/// `spawn_sendable!(payload, work)`: `send_marker::spawn(payload, work)`,
/// or a test failure that says the payload or the result is not `Sendable`.
macro_rules! spawn_sendable {
    ($payload:expr, $work:expr) => {{
        #[allow(unused_imports)]
        use $crate::support::{StartOther as _, StartSendable as _};
        let job = $crate::support::Job::new($payload, $work);
        #[allow(clippy::needless_borrow)]
        let handle = (&job).start();
        handle.unwrap_or_else(|| {
            panic!(
                "cannot spawn `{}` on `{}`: its payload or its result is not `Sendable` yet",
                stringify!($work),
                stringify!($payload)
            )
        })
    }};
}
pub(crate) use spawn_sendable;
