//! Generated inputs, and the smallest failing one for a failure's message.
//!
//! A case that runs sequences of operations draws them with proptest's
//! strategies from a runner of [`runner`], so the observing program and the
//! judge draw the same values from the same seed. When the observing
//! program sees its sequence go wrong, [`smallest_failing`] walks proptest's
//! shrinking (each value's `simplify` and `complicate`) to a smaller input
//! that still goes wrong, and records it with what the learner's code did
//! on it.
//!
//! **Invariant**: nothing here decides a verdict. The judge fails a case on
//! the sequences it drew itself, whatever the observation says about a
//! smaller one; a smaller sequence only appears in the message, and only
//! after the judge has checked that the answers recorded for it differ
//! from its own model's. Learner code that lies about it can only make its
//! own failure message less helpful.

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

/// A runner whose every draw follows from `seed` alone: no environment,
/// no file of past failures.
pub fn runner(seed: u64) -> TestRunner {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&(!seed).to_le_bytes());
    let config = Config {
        failure_persistence: None,
        ..Config::default()
    };
    TestRunner::new_with_rng(config, TestRng::from_seed(RngAlgorithm::ChaCha, &bytes))
}

/// Draws one value of `strategy`, as a tree that can shrink. A case's
/// strategies never reject a value (no filters), so a rejection is a
/// mistake in the case, reported as such.
pub fn draw<S: Strategy>(strategy: &S, runner: &mut TestRunner) -> S::Tree {
    match strategy.new_tree(runner) {
        Ok(tree) => tree,
        Err(reason) => panic!("a case's strategy rejected its own value: {reason}"),
    }
}

/// The smallest value of `tree` found for which `fails` holds, trying at
/// most `budget` smaller values: proptest's shrinking, as its own runner
/// does it (simplify after a failure, complicate after a pass). The tree's
/// current value is taken to fail.
pub fn smallest_failing<T: ValueTree>(
    mut tree: T,
    budget: usize,
    mut fails: impl FnMut(&T::Value) -> bool,
) -> T::Value {
    let mut smallest = tree.current();
    if !tree.simplify() {
        return smallest;
    }
    for _ in 0..budget {
        let candidate = tree.current();
        if fails(&candidate) {
            smallest = candidate;
            if !tree.simplify() {
                break;
            }
        } else if !tree.complicate() {
            break;
        }
    }
    smallest
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::collection::vec;

    /// The same seed draws the same values; another seed other values.
    #[test]
    fn draws_follow_the_seed() {
        let strategy = vec(0u32..1000, 0..50);
        let a = draw(&strategy, &mut runner(7)).current();
        assert_eq!(a, draw(&strategy, &mut runner(7)).current());
        assert_ne!(a, draw(&strategy, &mut runner(8)).current());
    }

    /// A failure that needs one value above 500 shrinks to that value
    /// alone, at the smallest number that still fails.
    #[test]
    fn shrinks_to_a_minimal_failure() {
        let strategy = vec(0u32..1000, 20..=40);
        let mut runner = runner(3);
        let tree = loop {
            let tree = draw(&strategy, &mut runner);
            if tree.current().iter().any(|&n| n > 500) {
                break tree;
            }
        };
        let smallest = smallest_failing(tree, 10_000, |values| values.iter().any(|&n| n > 500));
        // The vector's length cannot go below the strategy's 20.
        assert_eq!(smallest.len(), 20, "{smallest:?}");
        assert_eq!(
            smallest.iter().filter(|&&n| n > 500).count(),
            1,
            "{smallest:?}"
        );
        assert!(smallest.contains(&501), "{smallest:?}");
    }

    /// A budget of nothing keeps the value it was given.
    #[test]
    fn no_budget_keeps_the_failure() {
        let strategy = vec(0u32..1000, 5..10);
        let tree = draw(&strategy, &mut runner(1));
        let current = tree.current();
        assert_eq!(smallest_failing(tree, 0, |_| true), current);
    }
}
