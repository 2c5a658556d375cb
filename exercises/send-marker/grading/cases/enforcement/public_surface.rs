//! Proves enforcement: the crate makes public nothing but the exercise's API
//! (the reference solution's public items) and the items the manifest
//! allows, each probed by a case. Every `impl Sendable` is public, and so is
//! everything `spawn` could be bypassed with: an impl for a type that is
//! neither in the API nor allowed (a blanket impl, one for `Rc`, a raw
//! pointer, a function pointer), a public wrapper, a second spawning
//! function, or an impl of `Send` for `Handle` would each be a way around
//! the contract, and this case names every such item it finds.
//!
//! The grading engine reads the surface from the compiler's expansion of the
//! crate (macros included); this file has no code.
