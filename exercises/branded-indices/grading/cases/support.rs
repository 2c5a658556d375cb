//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the observing program and of the judge.
//!
//! Every input comes from the judge's seed: the items, the lengths, the
//! positions asked for. The scenarios (an empty vector, a position just
//! past the end, a swap of an item with itself) are the same in every run.
#![allow(dead_code)]

use xsafe_case::Seed;

/// `len` items drawn from `seed`.
pub fn items(seed: Seed, len: usize) -> Vec<u32> {
    let mut rng = seed.rng();
    (0..len).map(|_| rng.u32(..)).collect()
}

/// A permutation of `0..len` drawn from `seed` (Fisher-Yates).
pub fn permutation(seed: Seed, len: usize) -> Vec<usize> {
    let mut rng = Seed(seed.0 ^ 0x5eed).rng();
    let mut order: Vec<usize> = (0..len).collect();
    for last in (1..len).rev() {
        order.swap(last, rng.usize(..=last));
    }
    order
}

/// Asserts that `seen` equals `expected`, naming the first position where
/// they differ rather than printing both (they are long).
#[track_caller]
pub fn assert_same(seen: &[u32], expected: &[u32], what: &str) {
    assert_eq!(seen.len(), expected.len(), "{what}: {} items instead of {}", seen.len(), expected.len());
    if let Some(at) = (0..seen.len()).find(|&at| seen[at] != expected[at]) {
        panic!("{what}: at position {at}, {} instead of {}", seen[at], expected[at]);
    }
}

#[cfg(not(xsafe_judge))]
pub use observe::*;

/// What only the observing program needs.
#[cfg(not(xsafe_judge))]
mod observe {
    /// Asks whether a type has an impl without requiring one: method
    /// lookup on `&Probe<T>` tries the impls for `Probe<T>` (which need the
    /// trait) before the fallbacks for `&Probe<T>` (which answer `false`).
    pub struct Probe<T>(pub std::marker::PhantomData<T>);

    impl<T> Probe<T> {
        /// A probe of `T`.
        pub fn of() -> Self {
            Probe(std::marker::PhantomData)
        }
    }

    /// Whether the type has `Default`.
    pub trait HasDefault {
        fn has_default(&self) -> bool;
    }
    impl<T: Default> HasDefault for Probe<T> {
        fn has_default(&self) -> bool {
            true
        }
    }
    pub trait LacksDefault {
        fn has_default(&self) -> bool {
            false
        }
    }
    impl<T> LacksDefault for &Probe<T> {}

    /// Whether the type has `From<usize>`.
    pub trait HasFromUsize {
        fn has_from_usize(&self) -> bool;
    }
    impl<T: From<usize>> HasFromUsize for Probe<T> {
        fn has_from_usize(&self) -> bool {
            true
        }
    }
    pub trait LacksFromUsize {
        fn has_from_usize(&self) -> bool {
            false
        }
    }
    impl<T> LacksFromUsize for &Probe<T> {}

    /// Whether the type has `Clone`.
    pub trait HasClone {
        fn has_clone(&self) -> bool;
    }
    impl<T: Clone> HasClone for Probe<T> {
        fn has_clone(&self) -> bool {
            true
        }
    }
    pub trait LacksClone {
        fn has_clone(&self) -> bool {
            false
        }
    }
    impl<T> LacksClone for &Probe<T> {}
}
