//! Proves enforcement: the crate makes public nothing but the exercise's API
//! (the reference solution's public items) and the items the manifest
//! allows, each harmless or probed by a case. A public field, a setter, a
//! `get_mut`, a second unchecked constructor under another name, a `Clone`
//! or `Default` for a socket, or a conversion no case probes would each be
//! a door around the checks: this case names every such item it finds.
//!
//! The grading engine reads the surface from the compiler's expansion of the
//! crate (macros included); this file has no code.
