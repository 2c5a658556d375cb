//! The X-safe Rust grading engine.
//!
//! [`grade`] grades one exercise crate, phase by phase (`grade.rs`):
//!
//! * the **trusted** part ([`trusted`]): from the pristine exercise alone,
//!   the lockfile, a cache of compiled dependencies and the judge;
//! * **recording** the learner's procedural macros, where the exercise has
//!   any, in a build of their own ([`macros`]);
//! * the **deciding build**: the crate (its macros replayed), its
//!   compile-fail cases, the observing program, the expansion and
//!   rustdoc's JSON; a crate that reads files outside the exercise
//!   ([`depinfo`]), holds code that would run without a case
//!   ([`before_main`]) or is another crate for rustdoc or Miri than for
//!   the compiler ([`cfg_view`]) is refused here;
//! * **compile-fail** verdicts from the compiler's JSON diagnostics against
//!   the `//~` annotations ([`compile_fail`]);
//! * **observe**, then **judge**: each behaviour case's `observe` half runs
//!   linked with the learner's code, and its `judge` half, built without
//!   it, decides from what it printed ([`behaviour`]);
//! * the **no-panic** cases, when the request is `full`: the crate and a
//!   probe built in release mode, their assembly read for panic paths
//!   that the probe's functions reach ([`no_panic`]);
//! * the **surface**: every item outside code can reach, from rustdoc's
//!   JSON ([`api`], [`surface`]).
//!
//! Every process that reads, compiles or runs learner bytes is a confined
//! job ([`confine`]), and every process is bounded in time, output and
//! memory ([`limits`]). For diagnosis, `XSAFE_SHOW_JOBS=1` prints each
//! job's script and `XSAFE_TIMINGS=1` the time of each phase and step.

pub mod api;
pub mod before_main;
pub mod behaviour;
pub mod bounded;
pub mod build;
pub mod canon;
pub mod cfg_view;
pub mod cgroup;
pub mod compile_fail;
pub mod compile_fail_batch;
pub mod compile_fail_check;
pub mod confine;
pub mod depinfo;
pub mod doc_cache;
mod grade;
pub mod job_cache;
pub mod limits;
pub mod macros;
pub mod miri;
pub mod no_panic;
mod outcome;
mod parallel;
pub mod project;
pub mod surface;
pub mod toolchain;
pub mod trusted;

/// Whether `XSAFE_TIMINGS` asks for the time of each phase, job, step and
/// case on standard error (for diagnosis only: no verdict reads it).
pub(crate) fn timings_wanted() -> bool {
    std::env::var_os("XSAFE_TIMINGS").is_some()
}

/// With [`timings_wanted`], prints how long `what` took since `started`.
pub fn timing(what: &str, started: std::time::Instant) {
    if timings_wanted() {
        eprintln!("{what}: {:?}", started.elapsed());
    }
}

pub use confine::{Freshness, Isolation};
pub use grade::{GradeError, GradeRequest, built_before, grade};
pub use limits::Limits;
pub use outcome::{CaseOutcome, Grade, Status};
pub use parallel::in_parallel;
pub use toolchain::Toolchain;
pub use xsafe_course::{
    Case, Course, CourseError, Exercise as CourseExercise, Expect, Manifest, ManifestError, Place,
    Step, StepName, git_blob_id,
};
