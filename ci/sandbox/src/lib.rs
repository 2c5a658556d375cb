//! Reading a learner's submission without trusting it, and building
//! standalone copies of exercise crates for grading.
//!
//! * [`submission`]: which files of a submission may reach a grade (only
//!   the learner files, never through a link), and what was ignored;
//! * [`mirror`]: copying a folder without links, keeping unchanged files;
//! * [`build_sandbox`]: a fresh copy of a pristine exercise crate (its
//!   `Cargo.toml`, `grading/`) in which only the learner's files come from
//!   elsewhere: a submission, or a reference solution with an [`Overlay`]
//!   applied. The copy is its own Cargo workspace, with path dependencies
//!   made absolute, so it builds wherever it is placed.

mod mirror;
mod overlay;
mod sandbox;
pub mod submission;

pub use mirror::{LeftOut, LeftOutBecause, is_safe_name, mirror};
pub use overlay::{Edit, Overlay, OverlayError, Variants};
pub use sandbox::{Sandbox, SandboxError, SandboxSpec, build_sandbox};
