//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the observing program and of the judge.
//!
//! Most cases ask the compiler whether a type is `Sendable`, and must
//! still compile when it is not (a starter has no impls at all). So the
//! observing program asks through autoref specialisation: method lookup
//! on `&Probe<T>` finds the method of `Probe<T>` itself, which exists only
//! when `T: Sendable`, before the fallback for `&Probe<T>`, which answers
//! `false`. The answer is decided at compile time and recorded, with the
//! type's name, as data ([`Answers`]); the judge compares each answer with
//! what the contract says of that type. [`sendable_probes!`] writes a
//! table of types once, for both halves: its names in both programs, its
//! answers only in the observing one, so the judge knows which types it
//! must hear about.
//!
//! Spawning goes through the same trick ([`spawn_sendable!`]): a job whose
//! payload or result is not `Sendable` yet is recorded as "could not
//! spawn" instead of stopping the whole program from compiling.
#![allow(dead_code, unused_macros, unused_imports)]

use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// `(type, whether the compiler found it Sendable)`, in the table's order.
pub type Answers = Vec<(String, bool)>;

/// Checks that `answers` are the answers for exactly the types `names`, in
/// order, and returns the names of the types whose answer is not `wanted`.
pub fn answers_other_than(names: &[&str], answers: &Answers, wanted: bool) -> Vec<String> {
    let heard: Vec<&str> = answers.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        heard, names,
        "the observation must answer for every probed type, in order"
    );
    answers
        .iter()
        .filter(|(_, answer)| *answer != wanted)
        .map(|(name, _)| format!("`{name}`"))
        .collect()
}

/// Fails, with `why`, unless every type of the table is `Sendable`.
pub fn assert_all_sendable(names: &[&str], answers: &Answers, why: &str) {
    let wrong = answers_other_than(names, answers, true);
    assert!(
        wrong.is_empty(),
        "{} must be `Sendable`: {why}",
        wrong.join(", ")
    );
}

/// Fails, with `why`, if any type of the table is `Sendable`.
pub fn assert_none_sendable(names: &[&str], answers: &Answers, why: &str) {
    let wrong = answers_other_than(names, answers, false);
    assert!(
        wrong.is_empty(),
        "{} must not be `Sendable`: {why}",
        wrong.join(", ")
    );
}

/// A number drawn from the seed, for payloads and panic messages.
pub fn drawn(seed: Seed, salt: u64, limit: u32) -> u32 {
    xsafe_case::Rng::with_seed(seed.0 ^ salt).u32(1..limit)
}

/// How a call ended, as the observing program saw it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ended<T> {
    /// It returned this.
    Returned(T),
    /// It panicked with this message.
    Panicked(String),
}

/// `sendable_probes! { mod NAME { Type, Type, ... } }`: a module `NAME`
/// with `NAMES`, the types as written (in both programs), and, in the
/// observing program only, `answers()`, whether each is `Sendable`. The
/// module sees the case's own imports and types (`use super::*`).
macro_rules! sendable_probes {
    ($(#[$meta:meta])* mod $name:ident { $($ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[allow(unused_imports, non_snake_case)]
        mod $name {
            use super::*;

            /// The probed types, as the table writes them.
            pub const NAMES: &[&str] = &[$(stringify!($ty)),*];

            /// Whether each probed type is `Sendable`.
            #[cfg(not(xsafe_judge))]
            pub fn answers() -> $crate::support::Answers {
                vec![$((stringify!($ty).to_owned(), $crate::support::is_sendable!($ty))),*]
            }
        }
    };
}
pub(crate) use sendable_probes;

#[cfg(not(xsafe_judge))]
pub use observe::*;

/// What only the observing program needs: the learner's crate.
#[cfg(not(xsafe_judge))]
mod observe {
    use super::Ended;
    use send_marker::{Handle, Sendable};
    use std::any::Any;
    use std::cell::Cell;
    use std::marker::PhantomData;
    use std::panic::{AssertUnwindSafe, catch_unwind};

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

    /// `is_sendable!(Type)`: whether `Type: Sendable`, decided by the
    /// compiler. `Type` must be concrete where it is asked.
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

    /// Found first, through `&Job<T, R>`, when the payload and the result
    /// are `Sendable`: it calls `send_marker::spawn`.
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

    /// `spawn_sendable!(payload, work)`: `Some(send_marker::spawn(payload,
    /// work))`, or `None` when the payload or the result is not `Sendable`.
    macro_rules! spawn_sendable {
        ($payload:expr, $work:expr) => {{
            #[allow(unused_imports)]
            use $crate::support::{StartOther as _, StartSendable as _};
            let job = $crate::support::Job::new($payload, $work);
            #[allow(clippy::needless_borrow)]
            let handle = (&job).start();
            handle
        }};
    }
    pub(crate) use spawn_sendable;

    /// The text of a panic's payload.
    pub fn panic_message(payload: &(dyn Any + Send)) -> String {
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| {
                payload
                    .downcast_ref::<&str>()
                    .map(|text| (*text).to_owned())
            })
            .unwrap_or_else(|| "a panic without a message".to_owned())
    }

    /// Runs `work`, and says whether it returned or panicked.
    pub fn caught<R>(work: impl FnOnce() -> R) -> Ended<R> {
        match catch_unwind(AssertUnwindSafe(work)) {
            Ok(value) => Ended::Returned(value),
            Err(payload) => Ended::Panicked(panic_message(&*payload)),
        }
    }

    /// The calling thread, as text that tells threads apart.
    pub fn current_thread() -> String {
        format!("{:?}", std::thread::current().id())
    }
}

#[cfg(not(xsafe_judge))]
pub(crate) use observe::{is_sendable, spawn_sendable};
