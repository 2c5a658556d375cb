//! The X-safe Rust grading engine.
//!
//! [`grade`] grades one exercise crate: it generates a cargo workspace for
//! the exercise's cases ([`project`]), builds it once, and decides:
//!
//! * **compile-fail** cases from the compiler's JSON diagnostics against
//!   the `//~` annotations in the case files ([`compile_fail`]), in a build
//!   where no learner code runs (a learner's procedural macros are
//!   recorded in a confined build and replayed: [`macros`]);
//! * **behaviour** cases by running their `observe` half, linked with the
//!   learner's code, confined ([`isolation`]), and handing what it printed
//!   to their `judge` half, built without it ([`behaviour`]);
//! * the **surface** case from the crate's expanded public items
//!   ([`surface`]).
//!
//! Every process it starts is bounded in time, output and memory
//! ([`limits`]), and builds that share a target directory wait for each
//! other outside their time limits ([`build`]).

pub mod api;
pub mod before_main;
pub mod behaviour;
pub mod build;
pub mod compile_fail;
pub mod confine;
pub mod depinfo;
mod grade;
pub mod limits;
pub mod macros;
mod outcome;
mod parallel;
pub mod project;
pub mod surface;
pub mod toolchain;
pub mod trusted;

pub use confine::{Freshness, Isolation};
pub use grade::{GradeError, GradeRequest, grade};
pub use limits::Limits;
pub use outcome::{CaseOutcome, Grade, Status};
pub use parallel::in_parallel;
pub use toolchain::Toolchain;
pub use xsafe_course::{
    Case, Course, CourseError, Exercise as CourseExercise, Expect, Manifest, ManifestError, Place,
    Step, StepName, git_blob_id,
};
