//! The X-safe Rust course as data.
//!
//! * [`Course`]: the exercises on disk, in the order the book teaches them;
//! * [`Manifest`]: one exercise's `grading/manifest.toml` (steps, cases,
//!   points, hints, learner files, public API);
//! * [`Expectations`]: what a compile-fail case expects of the compiler,
//!   read from its `//~` annotations.
//!
//! Every tool of the course reads the course through this crate (the
//! learner's `cargo xsafe`, the instructor's grader, the proofs, the
//! grading engine), so that they agree on what a case is. It runs no code
//! of the course and builds nothing.

mod course;
mod expectation;
mod manifest;

pub use course::{Course, CourseError, Exercise};
pub use expectation::{AnnotationError, Expectations, ExpectedError, Place};
pub use manifest::{
    AllowedItem, Case, Expect, JudgeSettings, Manifest, ManifestError, Step, StepName, Surface,
    git_blob_id,
};
