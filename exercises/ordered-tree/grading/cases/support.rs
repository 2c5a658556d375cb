//! Helpers shared by the behaviour cases (not a case itself): the module
//! `crate::support` of the behaviour tests.
#![allow(dead_code)]

use ordered_tree::{Node, OrderedSet};
use std::cell::Cell;
use std::cmp::Ordering;

/// Checks, through the read-only node view, that every key is greater than
/// all keys in its left subtree and less than all keys in its right subtree,
/// and that `len()` counts the nodes.
pub fn assert_ordered<T: Ord + std::fmt::Debug>(set: &OrderedSet<T>) {
    fn walk<'a, T: Ord + std::fmt::Debug>(
        node: Option<&'a Node<T>>,
        low: Option<&'a T>,
        high: Option<&'a T>,
    ) -> usize {
        let Some(node) = node else { return 0 };
        let key = node.key();
        if let Some(low) = low {
            assert!(key > low, "the tree is out of order: {key:?} sits on the right of {low:?} but is not greater");
        }
        if let Some(high) = high {
            assert!(key < high, "the tree is out of order: {key:?} sits on the left of {high:?} but is not less");
        }
        1 + walk(node.left(), low, Some(key)) + walk(node.right(), Some(key), high)
    }
    let nodes = walk(set.root_node(), None, None);
    assert_eq!(set.len(), nodes, "len() must count the nodes of the tree");
}

thread_local! {
    static COMPARISONS: Cell<usize> = const { Cell::new(0) };
}

/// A key that counts how often it is compared, for equality or for order.
#[derive(Debug, Clone, Copy)]
pub struct Counted(pub u32);

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

/// Runs `work` and returns how many comparisons of `Counted` keys it made.
pub fn comparisons_in(work: impl FnOnce()) -> usize {
    let before = COMPARISONS.with(Cell::get);
    work();
    COMPARISONS.with(Cell::get) - before
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
