//! Proves enforcement: the crate makes public nothing but the exercise's API
//! (the reference solution's public items) and the items the manifest
//! allows, each harmless or probed by a case. A `Clone` or `Default` for a
//! token, a token method that returns a second token (a `fork`), a
//! `Deref` to the `std` lock inside an ordered one, a public field or an
//! `at_level` made public would each be a way around the order: this case
//! names every such item it finds. The routes it closes are listed in
//! `grading/ROUTES.md`.
//!
//! The grading engine reads the surface from the compiler's expansion of the
//! crate (macros included); this file has no code.
