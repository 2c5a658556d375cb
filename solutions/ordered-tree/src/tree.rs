//! Enforcement of the ordering invariant.
//!
//! **Invariant.** For every [`Node`] `n`: every key in `n.left` is less than
//! `n.key`, and every key in `n.right` is greater than `n.key` (so no key
//! appears twice).
//!
//! This module is the only code that creates nodes or changes their fields.
//! The fields are private, so outside this module a node can be read (through
//! [`Node::key`], [`Node::left`] and [`Node::right`]) but never built, and a
//! key can never be reached mutably. To check that the invariant holds, it is
//! enough to read the functions below: `leaf`, `insert` and `remove`.

use std::cmp::Ordering;

/// An owned, possibly empty subtree.
pub(crate) type Link<T> = Option<Box<Node<T>>>;

/// One node of a binary search tree.
///
/// Every key in the left subtree is less than [`key`](Node::key), and every
/// key in the right subtree is greater. Code outside this crate can walk a
/// tree through these read-only accessors (for example to check the order, or
/// to draw the tree) but cannot build or change a node.
#[derive(Debug, Clone)]
pub struct Node<T> {
    key: T,
    left: Link<T>,
    right: Link<T>,
}

impl<T> Node<T> {
    /// The key stored in this node.
    pub fn key(&self) -> &T {
        &self.key
    }

    /// The subtree of keys less than [`key`](Node::key), if any.
    pub fn left(&self) -> Option<&Node<T>> {
        self.left.as_deref()
    }

    /// The subtree of keys greater than [`key`](Node::key), if any.
    pub fn right(&self) -> Option<&Node<T>> {
        self.right.as_deref()
    }
}

/// A tree of one node. It is ordered because it has no subtrees.
pub(crate) fn leaf<T>(key: T) -> Box<Node<T>> {
    Box::new(Node {
        key,
        left: None,
        right: None,
    })
}

/// Adds `key` to the tree at `link`, keeping it ordered.
///
/// It walks down the one path on which `key` belongs and hangs a new leaf at
/// its end, so every node it passes keeps smaller keys on its left and larger
/// ones on its right. Returns `false`, changing nothing, if `key` is present.
pub(crate) fn insert<T: Ord>(mut link: &mut Link<T>, key: T) -> bool {
    while let Some(node) = link {
        link = match key.cmp(&node.key) {
            Ordering::Less => &mut node.left,
            Ordering::Greater => &mut node.right,
            Ordering::Equal => return false,
        };
    }
    *link = Some(leaf(key));
    true
}

/// Adds `key` to the non-empty tree `root`; see [`insert`].
pub(crate) fn insert_below<T: Ord>(root: &mut Node<T>, key: T) -> bool {
    let link = match key.cmp(&root.key) {
        Ordering::Less => &mut root.left,
        Ordering::Greater => &mut root.right,
        Ordering::Equal => return false,
    };
    insert(link, key)
}

/// Removes `key` from the tree at `link` and returns it, keeping the rest of
/// the tree ordered. Returns `None` if `key` is absent.
pub(crate) fn remove<T: Ord>(link: &mut Link<T>, key: &T) -> Option<T> {
    let link = find(link, key);
    let node = link.take()?;
    let Node { key, left, right } = *node;
    *link = join(left, right);
    Some(key)
}

/// The link that holds `key`, or the empty link where it would be inserted.
fn find<'a, T: Ord>(mut link: &'a mut Link<T>, key: &T) -> &'a mut Link<T> {
    loop {
        let ordering = link.as_deref().map(|node| key.cmp(&node.key));
        link = match (ordering, link) {
            (Some(Ordering::Less), Some(node)) => &mut node.left,
            (Some(Ordering::Greater), Some(node)) => &mut node.right,
            (_, found) => return found,
        };
    }
}

/// Joins two ordered trees where every key of `left` is less than every key
/// of `right`. The smallest node of `right` becomes the new root: it is
/// greater than all of `left` and less than the rest of `right`.
fn join<T>(left: Link<T>, mut right: Link<T>) -> Link<T> {
    match detach_min(&mut right) {
        None => left,
        Some(mut root) => {
            root.left = left;
            root.right = right;
            Some(root)
        }
    }
}

/// Takes the smallest node out of the tree at `link` and returns it with no
/// subtrees. Its right subtree takes its place, which keeps the tree ordered:
/// those keys were greater than the node and less than its parent.
fn detach_min<T>(mut link: &mut Link<T>) -> Option<Box<Node<T>>> {
    while link.as_ref().is_some_and(|node| node.left.is_some()) {
        link = &mut link.as_mut()?.left;
    }
    let mut min = link.take()?;
    *link = min.right.take();
    Some(min)
}
