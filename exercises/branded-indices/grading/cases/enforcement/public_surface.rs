//! Proves enforcement: the crate makes public nothing but the exercise's API
//! (the reference solution's public items) and the items the manifest
//! allows, each probed by a case. A public field, a `From<usize>` or a
//! `Default` for `Index`, a `truncate` on the handle or a constructor that
//! skips the check would each be a way to an index out of bounds: this case
//! names every such item it finds.
//!
//! The grading engine reads the surface from the compiler's expansion of the
//! crate (macros included); this file has no code.
