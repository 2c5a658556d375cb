//! The set types, and the code that consumes the ordering invariant.
//!
//! Nothing here can break the order: node fields belong to the `tree` module,
//! so this module only moves whole trees around and calls `tree::insert` and
//! `tree::remove`. It owns a second, smaller invariant of its own: `len` is
//! always the number of nodes in `root`.

use crate::iter::{Iter, Range};
use crate::tree::{self, Link, Node};
use std::cmp::Ordering;
use std::fmt;
use std::num::NonZeroUsize;
use std::ops::RangeBounds;

/// A set of keys kept in a binary search tree.
///
/// The tree is always ordered (see [`Node`]), and `len` always counts its
/// nodes. Both fields are private, so no code outside this crate can make
/// either statement false.
#[derive(Clone)]
pub struct OrderedSet<T> {
    root: Link<T>,
    len: usize,
}

/// A set that holds at least one key.
///
/// Its root is a node, not an optional link, so the type itself says that
/// the set is not empty: [`min`](NonEmptySet::min) and
/// [`max`](NonEmptySet::max) return `&T`, and there is no way to remove the
/// last key without turning the set back into an [`OrderedSet`].
#[derive(Clone)]
pub struct NonEmptySet<T> {
    root: Box<Node<T>>,
    len: NonZeroUsize,
}

impl<T> OrderedSet<T> {
    /// An empty set.
    pub fn new() -> Self {
        OrderedSet { root: None, len: 0 }
    }

    /// The number of keys in the set.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the set holds no key.
    pub fn is_empty(&self) -> bool {
        self.root.is_none()
    }

    /// The root of the tree, to read the tree's shape. `None` when empty.
    pub fn root_node(&self) -> Option<&Node<T>> {
        self.root.as_deref()
    }

    /// The keys in increasing order. No key is compared: the tree's order is
    /// the iteration order.
    pub fn iter(&self) -> Iter<'_, T> {
        Iter::new(self.root.as_deref(), self.len)
    }

    /// The smallest key, or `None` if the set is empty.
    pub fn first(&self) -> Option<&T> {
        self.root.as_deref().map(leftmost)
    }

    /// The largest key, or `None` if the set is empty.
    pub fn last(&self) -> Option<&T> {
        self.root.as_deref().map(rightmost)
    }

    /// The set as a [`NonEmptySet`], or the set itself back if it is empty.
    pub fn into_non_empty(self) -> Result<NonEmptySet<T>, OrderedSet<T>> {
        match (self.root, NonZeroUsize::new(self.len)) {
            (Some(root), Some(len)) => Ok(NonEmptySet { root, len }),
            (root, _) => Err(OrderedSet { root, len: 0 }),
        }
    }
}

impl<T: Ord> OrderedSet<T> {
    /// Adds `key`. Returns `false`, and keeps the set as it was, if the key
    /// was already present.
    pub fn insert(&mut self, key: T) -> bool {
        let added = tree::insert(&mut self.root, key);
        self.len += usize::from(added);
        added
    }

    /// Removes `key` and returns it, or `None` if it was absent.
    pub fn remove(&mut self, key: &T) -> Option<T> {
        let removed = tree::remove(&mut self.root, key)?;
        self.len -= 1;
        Some(removed)
    }

    /// Whether the set holds `key`. Follows one path from the root, so it
    /// compares `key` with at most as many keys as the tree is deep.
    pub fn contains(&self, key: &T) -> bool {
        self.get(key).is_some()
    }

    /// The key in the set equal to `key`, if any.
    pub fn get(&self, key: &T) -> Option<&T> {
        let mut next = self.root.as_deref();
        while let Some(node) = next {
            next = match key.cmp(node.key()) {
                Ordering::Less => node.left(),
                Ordering::Greater => node.right(),
                Ordering::Equal => return Some(node.key()),
            };
        }
        None
    }

    /// The keys within `range`, in increasing order. Subtrees that lie wholly
    /// outside the range are never visited.
    pub fn range<R: RangeBounds<T>>(&self, range: R) -> Range<'_, T> {
        Range::new(self.root.as_deref(), range.start_bound(), range.end_bound())
    }
}

impl<T> NonEmptySet<T> {
    /// A set of one key.
    pub fn new(first: T) -> Self {
        NonEmptySet {
            root: tree::leaf(first),
            len: NonZeroUsize::MIN,
        }
    }

    /// The number of keys, which is never zero.
    pub fn len(&self) -> NonZeroUsize {
        self.len
    }

    /// The smallest key. The set is never empty, so there is always one.
    pub fn min(&self) -> &T {
        leftmost(&self.root)
    }

    /// The largest key. The set is never empty, so there is always one.
    pub fn max(&self) -> &T {
        rightmost(&self.root)
    }

    /// The root of the tree, to read the tree's shape.
    pub fn root_node(&self) -> &Node<T> {
        &self.root
    }

    /// The keys in increasing order, as for [`OrderedSet::iter`].
    pub fn iter(&self) -> Iter<'_, T> {
        Iter::new(Some(&self.root), self.len.get())
    }

    /// The same keys, in a set that may become empty.
    pub fn into_set(self) -> OrderedSet<T> {
        OrderedSet {
            root: Some(self.root),
            len: self.len.get(),
        }
    }
}

impl<T: Ord> NonEmptySet<T> {
    /// Adds `key`; see [`OrderedSet::insert`].
    pub fn insert(&mut self, key: T) -> bool {
        let added = tree::insert_below(&mut self.root, key);
        if added {
            self.len = self.len.saturating_add(1);
        }
        added
    }

    /// Whether the set holds `key`; see [`OrderedSet::contains`].
    pub fn contains(&self, key: &T) -> bool {
        let mut next = Some(&*self.root);
        while let Some(node) = next {
            next = match key.cmp(node.key()) {
                Ordering::Less => node.left(),
                Ordering::Greater => node.right(),
                Ordering::Equal => return true,
            };
        }
        false
    }
}

/// The smallest key of a tree: in an ordered tree it is at the end of the
/// chain of left children, and a node always has a key, so no `Option`.
fn leftmost<T>(mut node: &Node<T>) -> &T {
    while let Some(left) = node.left() {
        node = left;
    }
    node.key()
}

/// The largest key of a tree, at the end of the chain of right children.
fn rightmost<T>(mut node: &Node<T>) -> &T {
    while let Some(right) = node.right() {
        node = right;
    }
    node.key()
}

impl<T> Default for OrderedSet<T> {
    fn default() -> Self {
        OrderedSet::new()
    }
}

/// Builds the set by `insert`, key by key: of keys equal by `Ord`, the one
/// given first stays. A `From<Vec<_>>` or `Extend<&_>` you add must build
/// exactly the set this builds from the same keys.
impl<T: Ord> FromIterator<T> for OrderedSet<T> {
    fn from_iter<I: IntoIterator<Item = T>>(keys: I) -> Self {
        let mut set = OrderedSet::new();
        set.extend(keys);
        set
    }
}

impl<T: Ord> Extend<T> for OrderedSet<T> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, keys: I) {
        for key in keys {
            self.insert(key);
        }
    }
}

impl<'a, T> IntoIterator for &'a OrderedSet<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a NonEmptySet<T> {
    type Item = &'a T;
    type IntoIter = Iter<'a, T>;

    fn into_iter(self) -> Iter<'a, T> {
        self.iter()
    }
}

impl<T: fmt::Debug> fmt::Debug for OrderedSet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<T: fmt::Debug> fmt::Debug for NonEmptySet<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}
