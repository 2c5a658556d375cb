//! Grading of X-safe Rust exercises.
//!
//! Every exercise has a `grading/` folder with a [`Manifest`] (`manifest.toml`)
//! and its cases: small programs that must compile and run (`pass`) or must
//! be rejected by the compiler with exactly the diagnostics recorded next to
//! them (`compile-fail`, a `.stderr` file). The cases are run by
//! [trybuild](https://docs.rs/trybuild).
//!
//! This crate has two sides:
//!
//! * **Inside a test** ([`grade_step`]): each exercise crate has a
//!   `tests/grade.rs` with one `#[test]` per step, so `cargo test --test grade`
//!   runs the exercise's cases step by step.
//! * **From outside** ([`grade_crate`]): run that test in a child process,
//!   read trybuild's report back, and return a [`Grade`] with the outcome of
//!   every case, for tools that show progress or compute scores.

mod manifest;
mod outcome;
mod run;
mod step;

pub use manifest::{Case, Expect, Manifest, ManifestError, Step, StepName};
pub use outcome::{CaseOutcome, Status, parse_trybuild_report};
pub use run::{Grade, GradeError, GradeRequest, grade_crate};
pub use step::grade_step;
