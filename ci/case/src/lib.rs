//! The building blocks of X-safe Rust's behaviour cases.
//!
//! A behaviour case is one file under `grading/cases/STEP/` with two halves:
//!
//! ```text
//! //! Proves enforcement: ...
//! use serde::{Deserialize, Serialize};
//! use xsafe_case::Seed;
//!
//! /// What the learner's code did: plain data.
//! #[derive(Debug, Serialize, Deserialize)]
//! pub struct Seen { keys: Vec<u32>, len: usize }
//!
//! /// Runs the learner's code on inputs drawn from `seed`.
//! #[cfg(not(xsafe_judge))]
//! pub fn observe(seed: Seed) -> Seen { ... }
//!
//! /// Decides, without the learner's code, whether `seen` is right for
//! /// `seed`; a failed `assert!` is the verdict "failed".
//! pub fn judge(seed: Seed, seen: Seen) { ... }
//! ```
//!
//! The grading engine builds the `observe` halves of every case into one
//! program linked with the learner's crate, and runs it, one case per
//! process, in isolation. It builds the `judge` halves, with the cfg
//! `xsafe_judge` set and without the learner's crate, into another program,
//! and gives it what each observation printed. Only that second program's
//! answer is a verdict: whatever the learner's code prints, it is data for
//! a judge that checks it against inputs the learner's code could not know
//! in advance (the [`Seed`]).
//!
//! This crate is compiled next to the learner's code, so it has few
//! dependencies: serde for observations, fastrand for the seeded inputs,
//! proptest for sequences that shrink to a small failing one.

pub mod harness;
pub mod pages;
pub mod protocol;
pub mod seal;
pub mod shrink;
pub mod watch;

pub use fastrand::Rng;
pub use proptest;

use serde::{Deserialize, Serialize};
use std::fmt;

/// The judge's choice for one run of a case: every input a case derives
/// from it is unknown to the learner's code until the case runs.
///
/// Cases randomize *values*, never *scenarios*: the seed may pick which
/// keys a tree holds, but a case that removes a node with two children
/// removes one in every run, so a wrong solution fails it in every run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seed(pub u64);

impl Seed {
    /// A generator of the case's inputs: the same seed always gives the
    /// same inputs, in the observing program and in the judge.
    pub fn rng(self) -> Rng {
        Rng::with_seed(self.0)
    }

    /// `count` distinct numbers in increasing order, drawn from the seed:
    /// keys that keep the order relations a case needs while their values
    /// change from run to run.
    pub fn ascending(self, count: usize) -> Vec<u32> {
        let mut rng = self.rng();
        let step = u32::try_from(count.max(1)).map_or(1, |count| (u32::MAX / 4) / count);
        let mut next = rng.u32(0..step.max(2));
        (0..count)
            .map(|_| {
                let key = next;
                next = next.saturating_add(rng.u32(1..step.max(2)));
                key
            })
            .collect()
    }
}

impl fmt::Display for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#018x}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same seed gives the same inputs; another seed other values in
    /// the same order relation.
    #[test]
    fn ascending_keys_follow_the_seed() {
        let a = Seed(7).ascending(50);
        assert_eq!(a, Seed(7).ascending(50));
        assert_ne!(a, Seed(8).ascending(50));
        for keys in [a, Seed(8).ascending(50), Seed(u64::MAX).ascending(1000)] {
            assert!(keys.windows(2).all(|pair| pair[0] < pair[1]), "{keys:?}");
        }
    }
}
