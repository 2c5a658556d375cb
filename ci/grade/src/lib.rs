//! Grading of X-safe Rust exercises.
//!
//! Every exercise has a `grading/` folder with a [`Manifest`] (`manifest.toml`)
//! and its cases, of two kinds:
//!
//! * **compile-fail** cases: programs the compiler must reject with exactly
//!   the diagnostics recorded next to them (a `.stderr` file), checked by
//!   [trybuild](https://docs.rs/trybuild), so a case never passes because of
//!   an unrelated error;
//! * **behaviour** (`pass`) cases: files of `#[test]` functions that use the
//!   exercise's API and assert what it does at run time.
//!
//! This crate has two sides:
//!
//! * **Inside the exercise's tests**: `tests/compile_fail.rs` is just
//!   [`compile_fail_cases!()`](compile_fail_cases), one test per step, and
//!   `tests/behaviour.rs` is just
//!   [`behaviour_cases!()`](behaviour_cases), so `cargo test -p EXERCISE`
//!   runs every case, named by step.
//! * **From outside** ([`grade_crate`]): run those tests in child processes,
//!   read their reports back, and return a [`Grade`] with the outcome of
//!   every case, for tools that show progress or compute scores.

mod course;
mod limits;
mod manifest;
mod outcome;
mod parallel;
mod run;
mod step;

pub use course::{Course, CourseError, Exercise as CourseExercise};
pub use limits::Limits;
pub use manifest::{Case, Expect, Manifest, ManifestError, Step, StepName, git_blob_id};
pub use outcome::{CaseOutcome, Status, TestResult, parse_libtest_report, parse_trybuild_report};
pub use parallel::in_parallel;
pub use run::{Grade, GradeError, GradeRequest, grade_crate};
pub use step::compile_fail_step;
pub use xsafe_grade_macros::behaviour_cases;
