//! Proves enforcement: the crate makes public nothing but the exercise's API
//! (the reference solution's public items) and the items the manifest
//! allows, each harmless or probed by a case. A public field of a token, a
//! `Default` or `From` that makes a token at any level, a `Deref` to the
//! `std` mutex inside an `OrderedMutex`, a method that copies a token under
//! another name, or an edge of the order written by hand would each be a
//! way around `lock` and `impl_lock_after!`: this case names every such
//! item it finds.
//!
//! The grading engine reads the surface from the compiler's expansion of the
//! crate (macros included); this file has no code.
