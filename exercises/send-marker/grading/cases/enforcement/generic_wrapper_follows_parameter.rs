//! Proves enforcement: a derived generic type is `Sendable` exactly when its
//! type parameters are. `Labeled<u32>` may move; `Labeled<Rc<u32>>` may not,
//! nor may an `Either` with an `Rc` on either side, nor a `Pinned<T>` that
//! holds `T` only through `PhantomData`. The compiler answers for each type
//! in the observing program; the judge compares each answer with whether
//! every type argument is `Sendable`.
use crate::support::{Answers, assert_all_sendable, assert_none_sendable, sendable_probes};
use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// The derived types: only the observing program has the derive.
#[cfg(not(xsafe_judge))]
#[allow(dead_code)] // The types are only asked about, never built.
mod types {
    use send_marker::Sendable;
    use std::marker::PhantomData;

    #[derive(Sendable)]
    pub struct Labeled<T> {
        label: String,
        value: T,
    }

    #[derive(Sendable)]
    pub enum Either<L, R> {
        Left(L),
        Right(R),
    }

    #[derive(Sendable)]
    pub struct Pinned<T> {
        id: u64,
        marker: PhantomData<T>,
    }
}

#[cfg(not(xsafe_judge))]
use std::rc::Rc;
#[cfg(not(xsafe_judge))]
use types::*;

sendable_probes! {
    mod of_sendable_types {
        Labeled<u32>, Labeled<Vec<String>>, Either<u8, String>,
        Labeled<Either<u8, Labeled<char>>>, Pinned<String>,
    }
}

sendable_probes! {
    mod of_anything_else {
        Labeled<Rc<u32>>, Labeled<*const u8>, Either<u8, Rc<u8>>, Either<Rc<u8>, u8>,
        Labeled<Labeled<Rc<u32>>>, Pinned<Rc<u8>>,
    }
}

#[derive(Debug, Serialize, Deserialize)]
pub struct Seen {
    of_sendable_types: Answers,
    of_anything_else: Answers,
}

#[cfg(not(xsafe_judge))]
pub fn observe(_seed: Seed) -> Seen {
    Seen {
        of_sendable_types: of_sendable_types::answers(),
        of_anything_else: of_anything_else::answers(),
    }
}

pub fn judge(_seed: Seed, seen: Seen) {
    assert_all_sendable(
        of_sendable_types::NAMES,
        &seen.of_sendable_types,
        "a derived generic type whose type arguments are all `Sendable` is `Sendable`",
    );
    assert_none_sendable(
        of_anything_else::NAMES,
        &seen.of_anything_else,
        "the derive must bound every type parameter by `Sendable`, so a type argument that is not makes the whole type not `Sendable`",
    );
}
