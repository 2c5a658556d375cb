//! In-order iterators. They rely on the ordering invariant: walking a tree
//! left subtree, node, right subtree yields its keys in increasing order, so
//! iteration compares no keys at all.

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
        let mut iter = Iter {
            pending: Vec::new(),
            remaining: len,
        };
        iter.descend_left(root);
        iter
    }

    fn descend_left(&mut self, mut next: Option<&'a Node<T>>) {
        while let Some(node) = next {
            self.pending.push(node);
            next = node.left();
        }
    }
}

impl<'a, T> Iterator for Iter<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        let node = self.pending.pop()?;
        self.descend_left(node.right());
        self.remaining -= 1;
        Some(node.key())
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
    /// The first node past the range's end, found once when the range is
    /// made; reaching it ends the iteration without comparing keys.
    end: Option<&'a Node<T>>,
}

impl<'a, T: Ord> Range<'a, T> {
    pub(crate) fn new(root: Option<&'a Node<T>>, start: Bound<&T>, end: Bound<&T>) -> Self {
        let mut pending = Vec::new();
        let mut next = root;
        while let Some(node) = next {
            if before_start(node.key(), start) {
                // The node and its whole left subtree are before the range.
                next = node.right();
            } else {
                pending.push(node);
                next = node.left();
            }
        }
        let end = first_after_end(root, end);
        if end.is_some_and(|end| before_start(end.key(), start)) {
            // The first key past the end comes before the start: the range
            // is inverted (`5..2`) or empty, and holds no key at all.
            pending.clear();
        }
        Range { pending, end }
    }
}

impl<'a, T> Range<'a, T> {
    fn descend_left(&mut self, mut next: Option<&'a Node<T>>) {
        while let Some(node) = next {
            self.pending.push(node);
            next = node.left();
        }
    }
}

fn before_start<T: Ord>(key: &T, start: Bound<&T>) -> bool {
    match start {
        Bound::Included(start) => key < start,
        Bound::Excluded(start) => key <= start,
        Bound::Unbounded => false,
    }
}

fn after_end<T: Ord>(key: &T, end: Bound<&T>) -> bool {
    match end {
        Bound::Included(end) => key > end,
        Bound::Excluded(end) => key >= end,
        Bound::Unbounded => false,
    }
}

/// The node with the smallest key past `end`, if any: one walk from the root.
fn first_after_end<'a, T: Ord>(root: Option<&'a Node<T>>, end: Bound<&T>) -> Option<&'a Node<T>> {
    let mut found = None;
    let mut next = root;
    while let Some(node) = next {
        if after_end(node.key(), end) {
            found = Some(node);
            next = node.left();
        } else {
            next = node.right();
        }
    }
    found
}

impl<'a, T> Iterator for Range<'a, T> {
    type Item = &'a T;

    fn next(&mut self) -> Option<&'a T> {
        let node = self.pending.pop()?;
        if self.end.is_some_and(|end| std::ptr::eq(end, node)) {
            self.pending.clear();
            return None;
        }
        self.descend_left(node.right());
        Some(node.key())
    }
}

impl<T> FusedIterator for Range<'_, T> {}
