//! Enforcement of the ordering invariant.
//!
//! **Invariant.** For every [`Node`] `n`: every key in `n.left` is less than
//! `n.key`, and every key in `n.right` is greater than `n.key` (so no key
//! appears twice).
//!
//! This module is meant to be the only code that creates nodes or changes
//! their fields, so that reading it is enough to trust the invariant.
//! Today it is not: the fields are public.

/// An owned, possibly empty subtree.
pub type Link<T> = Option<Box<Node<T>>>;

/// One node of a binary search tree.
///
/// Every key in the left subtree is less than [`key`](Node::key), and every
/// key in the right subtree is greater. Code outside this crate may walk a
/// tree through the read-only accessors, but must not build or change a node.
#[derive(Debug, Clone)]
pub struct Node<T> {
    // TODO(enforcement): these fields are public, so anyone can build a node
    // or overwrite a key and break the invariant. Make them private to this
    // module.
    /// The node's key.
    pub key: T,
    /// Keys less than `key`.
    pub left: Link<T>,
    /// Keys greater than `key`.
    pub right: Link<T>,
}

impl<T> Node<T> {
    /// The key stored in this node.
    pub fn key(&self) -> &T {
        // TODO(enforcement): read-only access to the key.
        todo!("Node::key")
    }

    /// The subtree of keys less than [`key`](Node::key), if any.
    pub fn left(&self) -> Option<&Node<T>> {
        // TODO(enforcement): read-only access to the left subtree.
        todo!("Node::left")
    }

    /// The subtree of keys greater than [`key`](Node::key), if any.
    pub fn right(&self) -> Option<&Node<T>> {
        // TODO(enforcement): read-only access to the right subtree.
        todo!("Node::right")
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

/// Adds `key` to the tree at `link`, keeping it ordered. Returns `false`,
/// changing nothing, if `key` is present.
pub(crate) fn insert<T: Ord>(link: &mut Link<T>, key: T) -> bool {
    // TODO(enforcement): walk down the one path where `key` belongs and hang
    // `leaf(key)` on the empty link at its end.
    let _ = (link, key);
    todo!("tree::insert")
}

/// Adds `key` to the non-empty tree `root`; see [`insert`].
pub(crate) fn insert_below<T: Ord>(root: &mut Node<T>, key: T) -> bool {
    // TODO(enforcement): like `insert`, starting below `root`.
    let _ = (root, key);
    todo!("tree::insert_below")
}

/// Removes `key` from the tree at `link` and returns it, keeping the rest of
/// the tree ordered. Returns `None` if `key` is absent.
pub(crate) fn remove<T: Ord>(link: &mut Link<T>, key: &T) -> Option<T> {
    // TODO(enforcement): find the node; replace it by its only child, or by
    // the smallest node of its right subtree when it has two children.
    let _ = (link, key);
    todo!("tree::remove")
}
