//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the observing program and of the judge.
//!
//! A case observes a set through its public, read-only node view and
//! records the tree as data ([`TreeView`]); the judge checks the order on
//! that data. Keys come from the judge's seed, in the order relations the
//! case needs ([`keys_like`]), so the values differ from run to run while
//! every tree has the same shape.
#![allow(dead_code)]

use serde::{Deserialize, Serialize};
use xsafe_case::Seed;

/// A tree as the learner's code built it: its nodes in pre-order, each
/// with the index of its left and right child. Flat, so that a tall tree
/// does not nest deeply in the observation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TreeView {
    /// `(key, left child, right child)`; the root, if any, is node 0.
    pub nodes: Vec<(u32, Option<usize>, Option<usize>)>,
    /// What the set's `len()` said.
    pub len: usize,
}

/// The keys `template` would have if each were replaced by the key of the
/// same rank among `count` keys drawn from `seed` (`count` at least the
/// largest template value plus one): the same order relations, other
/// values in every run.
pub fn keys_like(seed: Seed, template: &[u32], count: usize) -> Vec<u32> {
    let drawn = seed.ascending(count);
    template.iter().map(|&rank| drawn[rank as usize]).collect()
}

/// The keys `0..2^levels - 1` in an order that builds a perfectly balanced
/// tree of `levels` levels in a plain binary search tree: each midpoint
/// before the halves around it.
pub fn balanced_order(levels: u32) -> Vec<u32> {
    let mut order = Vec::new();
    let mut ranges = vec![(0u32, (1u32 << levels) - 1)];
    while !ranges.is_empty() {
        let mut next = Vec::new();
        for (start, end) in ranges {
            if start < end {
                let mid = start + (end - start) / 2;
                order.push(mid);
                next.push((start, mid));
                next.push((mid + 1, end));
            }
        }
        ranges = next;
    }
    order
}

/// Checks that a recorded tree is ordered (every key greater than all keys
/// in its left subtree and less than all in its right), that `len()`
/// counts its nodes, and returns its keys in order.
pub fn assert_ordered(view: &TreeView) -> Vec<u32> {
    let mut keys = Vec::new();
    if !view.nodes.is_empty() {
        // (node, low bound, high bound, children done)
        let mut stack: Vec<(usize, Option<u32>, Option<u32>, bool)> = vec![(0, None, None, false)];
        let mut seen = vec![false; view.nodes.len()];
        while let Some((index, low, high, done)) = stack.pop() {
            let Some(&(key, left, right)) = view.nodes.get(index) else {
                panic!("the recorded tree names a node {index} it does not have");
            };
            if done {
                keys.push(key);
                if let Some(right) = right {
                    stack.push((right, Some(key), high, false));
                }
                continue;
            }
            assert!(!seen[index], "the recorded tree visits node {index} twice");
            seen[index] = true;
            if let Some(low) = low {
                assert!(key > low, "the tree is out of order: {key} sits on the right of {low} but is not greater");
            }
            if let Some(high) = high {
                assert!(key < high, "the tree is out of order: {key} sits on the left of {high} but is not less");
            }
            stack.push((index, low, high, true));
            if let Some(left) = left {
                stack.push((left, low, Some(key), false));
            }
        }
        assert!(seen.iter().all(|&seen| seen), "the recorded tree has nodes the root does not reach");
    }
    assert_eq!(view.len, keys.len(), "len() must count the nodes of the tree");
    keys
}

/// The keys of `keys`, sorted and without duplicates.
pub fn sorted(keys: &[u32]) -> Vec<u32> {
    let mut keys = keys.to_vec();
    keys.sort_unstable();
    keys.dedup();
    keys
}

#[cfg(not(xsafe_judge))]
pub use observe::*;

/// What only the observing program needs: the learner's crate.
#[cfg(not(xsafe_judge))]
mod observe {
    use super::TreeView;
    use ordered_tree::{Node, OrderedSet};
    use std::cell::Cell;
    use std::cmp::Ordering;

    /// A recorded view of the tree under `root`, walked without recursion.
    pub fn view_of<K: Copy + Into<u32>>(root: Option<&Node<K>>, len: usize) -> TreeView {
        let mut nodes: Vec<(u32, Option<usize>, Option<usize>)> = Vec::new();
        // (node, parent index, is left child)
        let mut stack: Vec<(&Node<K>, Option<(usize, bool)>)> = root.map(|root| (root, None)).into_iter().collect();
        while let Some((node, parent)) = stack.pop() {
            let index = nodes.len();
            nodes.push(((*node.key()).into(), None, None));
            if let Some((parent, is_left)) = parent {
                if is_left {
                    nodes[parent].1 = Some(index);
                } else {
                    nodes[parent].2 = Some(index);
                }
            }
            if let Some(right) = node.right() {
                stack.push((right, Some((index, false))));
            }
            if let Some(left) = node.left() {
                stack.push((left, Some((index, true))));
            }
        }
        TreeView { nodes, len }
    }

    /// A recorded view of a set.
    pub fn view<K: Copy + Into<u32>>(set: &OrderedSet<K>) -> TreeView {
        view_of(set.root_node(), set.len())
    }

    thread_local! {
        static COMPARISONS: Cell<usize> = const { Cell::new(0) };
    }

    /// A key that counts how often it is compared, for equality or order.
    #[derive(Debug, Clone, Copy)]
    pub struct Counted(pub u32);

    impl From<Counted> for u32 {
        fn from(key: Counted) -> u32 {
            key.0
        }
    }

    impl PartialEq for Counted {
        fn eq(&self, other: &Self) -> bool {
            COMPARISONS.with(|count| count.set(count.get() + 1));
            self.0 == other.0
        }
    }

    impl Eq for Counted {}

    impl PartialOrd for Counted {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }

    impl Ord for Counted {
        fn cmp(&self, other: &Self) -> Ordering {
            COMPARISONS.with(|count| count.set(count.get() + 1));
            self.0.cmp(&other.0)
        }
    }

    /// Runs `work` and returns its result with how many comparisons of
    /// `Counted` keys it made.
    pub fn comparisons_in<R>(work: impl FnOnce() -> R) -> (R, usize) {
        let before = COMPARISONS.with(Cell::get);
        let result = work();
        (result, COMPARISONS.with(Cell::get) - before)
    }

    /// Asks whether a type has an impl without requiring one: method
    /// lookup on `&Probe<T>` tries the impls for `Probe<T>` (which need the
    /// trait) before the fallbacks for `&Probe<T>` (which answer `None`).
    /// The type must be concrete where the probe is called.
    pub struct Probe<T>(pub std::marker::PhantomData<T>);

    impl<T> Probe<T> {
        /// A probe of `T`.
        pub fn of() -> Self {
            Probe(std::marker::PhantomData)
        }
    }

    /// `Default`, if the type has it.
    pub trait ByDefault<T> {
        fn by_default(&self) -> Option<T>;
    }
    impl<T: Default> ByDefault<T> for Probe<T> {
        fn by_default(&self) -> Option<T> {
            Some(T::default())
        }
    }
    pub trait NoDefault<T> {
        fn by_default(&self) -> Option<T> {
            None
        }
    }
    impl<T> NoDefault<T> for &Probe<T> {}

    /// `Clone`, if the type has it.
    pub trait ByClone<T> {
        fn by_clone(&self, value: &T) -> Option<T>;
    }
    impl<T: Clone> ByClone<T> for Probe<T> {
        fn by_clone(&self, value: &T) -> Option<T> {
            Some(value.clone())
        }
    }
    pub trait NoClone<T> {
        fn by_clone(&self, _: &T) -> Option<T> {
            None
        }
    }
    impl<T> NoClone<T> for &Probe<T> {}

    /// `From<Vec<u32>>`, if the type has it.
    pub trait ByFromVec<T> {
        fn by_from_vec(&self, keys: Vec<u32>) -> Option<T>;
    }
    impl<T: From<Vec<u32>>> ByFromVec<T> for Probe<T> {
        fn by_from_vec(&self, keys: Vec<u32>) -> Option<T> {
            Some(T::from(keys))
        }
    }
    pub trait NoFromVec<T> {
        fn by_from_vec(&self, _: Vec<u32>) -> Option<T> {
            None
        }
    }
    impl<T> NoFromVec<T> for &Probe<T> {}

    /// `Extend<&u32>`, if the type has it.
    pub trait ByExtendRef<T> {
        fn by_extend_ref(&self, target: &mut T, keys: &[u32]) -> bool;
    }
    impl<T: for<'k> Extend<&'k u32>> ByExtendRef<T> for Probe<T> {
        fn by_extend_ref(&self, target: &mut T, keys: &[u32]) -> bool {
            target.extend(keys.iter());
            true
        }
    }
    pub trait NoExtendRef<T> {
        fn by_extend_ref(&self, _: &mut T, _: &[u32]) -> bool {
            false
        }
    }
    impl<T> NoExtendRef<T> for &Probe<T> {}
}
