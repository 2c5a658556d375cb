//! Proves enforcement: the crate makes public nothing but the exercise's API
//! (the reference solution's public items) and the items the manifest
//! allows, each probed by a case. A public field, a `get_mut`, a `Default`
//! for `NonEmptySet` or an unchecked `From` would each be a door around
//! `insert` and `remove`: this case names every such item it finds.
//!
//! The grading engine reads the surface from the compiler's expansion of the
//! crate (macros included); this file has no code.
