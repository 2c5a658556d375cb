//! Standalone copies of exercise crates, for grading.
//!
//! A sandbox is a fresh copy of a pristine exercise crate (its `Cargo.toml`,
//! `tests/` and `grading/`) in which only the learner's files (the manifest's
//! `learner_files`, such as `src/`) come from somewhere else: a learner's
//! submission, or a reference solution with an [`Overlay`] applied. The copy
//! is its own Cargo workspace, with path dependencies made absolute, so it
//! builds wherever it is placed.

mod overlay;
mod sandbox;

pub use overlay::{Edit, Overlay, OverlayError, Variants};
pub use sandbox::{Sandbox, SandboxError, SandboxSpec, build_sandbox, copy_tree};
