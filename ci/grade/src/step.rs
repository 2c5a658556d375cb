//! The in-test side of the compile-fail cases: runs one step's cases
//! through trybuild.
//!
//! An exercise crate's `tests/compile_fail.rs` is just
//! [`compile_fail_cases!()`](crate::compile_fail_cases), which calls
//! [`compile_fail_step`] once per step. (Behaviour cases are plain tests: see
//! [`behaviour_cases!`](crate::behaviour_cases).)
//! The cases come from the crate's own `grading/` folder: a grader that must
//! not trust a learner's copy of them builds a fresh crate with pristine ones
//! (see the `xsafe-sandbox` crate).

use crate::manifest::{Expect, Manifest, StepName};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

/// Runs the compile-fail cases of `step` (`"definition"`, `"enforcement"` or
/// `"consumption"`) of the crate at `crate_dir` in one trybuild batch, and
/// panics, as a failing test does, if any of them fails. trybuild checks a
/// batch of compile-fail cases with a single `cargo check`.
pub fn compile_fail_step(crate_dir: &str, step: &str) {
    let step = StepName::parse(step).unwrap_or_else(|| {
        panic!("`{step}` is not a step; use definition, enforcement or consumption")
    });
    let crate_dir = Path::new(crate_dir);
    let manifest = Manifest::load(&crate_dir.join("grading"))
        .unwrap_or_else(|err| panic!("cannot grade this crate: {err}"));

    let cases: Vec<_> = manifest
        .cases_of(step)
        .filter(|case| case.expect == Expect::CompileFail)
        .collect();
    if cases.is_empty() {
        return;
    }
    let run = panic::catch_unwind(AssertUnwindSafe(|| {
        let tests = trybuild::TestCases::new();
        for case in &cases {
            // A path relative to the crate (the test's working directory)
            // makes trybuild keep the case's line numbers in diagnostics.
            let path = manifest.case_path(case);
            tests.compile_fail(path.strip_prefix(crate_dir).unwrap_or(&path));
        }
        // trybuild runs the batch when `tests` is dropped.
    }));

    if run.is_err() {
        let mut message = format!(
            "compile-fail cases of the {step} step of `{}` failed: trybuild's report above names them.\n",
            manifest.exercise
        );
        message.push_str("What each of these cases proves:\n");
        for case in &cases {
            message.push_str(&format!(
                "  - {}: {}\n",
                case.name(),
                case.proves(&manifest)
            ));
        }
        if let Some(goal) = manifest.step(step).map(|step| &step.goal) {
            message.push_str(&format!("This step's goal: {goal}\n"));
        }
        panic!("{message}");
    }
}

/// The whole body of an exercise's `tests/compile_fail.rs`: one test per
/// step, named `definition`, `enforcement` and `consumption`, each running
/// that step's compile-fail cases with [`compile_fail_step`].
#[macro_export]
macro_rules! compile_fail_cases {
    () => {
        #[test]
        fn definition() {
            $crate::compile_fail_step(env!("CARGO_MANIFEST_DIR"), "definition");
        }

        #[test]
        fn enforcement() {
            $crate::compile_fail_step(env!("CARGO_MANIFEST_DIR"), "enforcement");
        }

        #[test]
        fn consumption() {
            $crate::compile_fail_step(env!("CARGO_MANIFEST_DIR"), "consumption");
        }
    };
}
