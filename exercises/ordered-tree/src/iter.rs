//! In-order iterators. They rely on the ordering invariant: walking a tree
//! left subtree, node, right subtree yields its keys in increasing order, so
//! iteration needs to compare no keys at all.

use crate::tree::Node;
use std::iter::FusedIterator;
use std::ops::Bound;

/// The keys of a set in increasing order; made by [`OrderedSet::iter`].
///
/// [`OrderedSet::iter`]: crate::OrderedSet::iter
#[derive(Debug, Clone)]
pub struct Iter<'a, T> {
    /// Nodes whose key and right subtree are still to come, innermost last.
    pending: Vec<&'a Node<T>>,
    remaining: usize,
}

impl<'a, T> Iter<'a, T> {
    pub(crate) fn new(root: Option<&'a Node<T>>, len: usize) -> Self {
        // TODO(consumption): start with the chain of left children of `root`
        // on the stack.
        let _ = root;
        Iter {
            pending: Vec::new(),
            remaining: len,
        }
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        // TODO(consumption): pop a node, push the chain of left children of
        // its right subtree, and yield the node's key. Compare nothing.
        let _ = &mut self.pending;
        todo!("Iter::next")
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.remaining, Some(self.remaining))
    }
}

impl<T> ExactSizeIterator for Iter<'_, T> {}
impl<T> FusedIterator for Iter<'_, T> {}

/// The keys of a set within a range, in increasing order; made by
/// [`OrderedSet::range`].
///
/// [`OrderedSet::range`]: crate::OrderedSet::range
#[derive(Debug, Clone)]
pub struct Range<'a, T> {
    /// As in [`Iter`], but holding only nodes at or after the range's start.
    pending: Vec<&'a Node<T>>,
    /// The first node past the range's end, if any.
    end: Option<&'a Node<T>>,
}

impl<'a, T: Ord> Range<'a, T> {
    pub(crate) fn new(root: Option<&'a Node<T>>, start: Bound<&T>, end: Bound<&T>) -> Self {
        // TODO(consumption): descend from `root` towards `start`, skipping
        // every node (and its left subtree) that lies before it, and find the
        // first node after `end` once, so that `next` need not compare.
        let _ = (root, start, end);
        todo!("Range::new")
    }
}

impl<'a, T> Iterator for Range<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        // TODO(consumption): as `Iter::next`, stopping at `self.end`.
        let _ = (&self.pending, self.end);
        todo!("Range::next")
    }
}

impl<T> FusedIterator for Range<'_, T> {}
