//! The in-test side: runs one step's cases through trybuild.
//!
//! An exercise crate's `tests/grade.rs` calls [`grade_step`] once per step.
//! The cases come from the crate's own `grading/` folder: a grader that must
//! not trust a learner's copy of them builds a fresh crate with pristine ones
//! (see the `xsafe-sandbox` crate).

use crate::manifest::{Expect, Manifest, StepName};
use std::panic::{self, AssertUnwindSafe};
use std::path::Path;

/// Runs the cases of `step` (`"definition"`, `"enforcement"` or
/// `"consumption"`) of the crate at `crate_dir` and panics, as a failing
/// test does, if any of them fails.
///
/// Cases that must pass and cases that must fail to compile go to two
/// trybuild runs: trybuild checks a batch of compile-fail cases with a single
/// `cargo check`, but only when no passing case is in the batch.
pub fn grade_step(crate_dir: &str, step: &str) {
    let step = StepName::parse(step).unwrap_or_else(|| {
        panic!("`{step}` is not a step; use definition, enforcement or consumption")
    });
    let crate_dir = Path::new(crate_dir);
    let manifest = Manifest::load(&crate_dir.join("grading"))
        .unwrap_or_else(|err| panic!("cannot grade this crate: {err}"));

    let cases: Vec<_> = manifest.cases_of(step).collect();
    let mut failed_runs = 0;
    for expect in [Expect::CompileFail, Expect::Pass] {
        let batch: Vec<_> = cases.iter().filter(|case| case.expect == expect).collect();
        if batch.is_empty() {
            continue;
        }
        let run = panic::catch_unwind(AssertUnwindSafe(|| {
            let tests = trybuild::TestCases::new();
            for case in &batch {
                // A path relative to the crate (the test's working directory)
                // makes trybuild keep the case's line numbers in diagnostics.
                let path = manifest.case_path(case);
                let path = path.strip_prefix(crate_dir).unwrap_or(&path);
                match expect {
                    Expect::Pass => tests.pass(path),
                    Expect::CompileFail => tests.compile_fail(path),
                }
            }
            // trybuild runs the batch when `tests` is dropped.
        }));
        failed_runs += usize::from(run.is_err());
    }

    if failed_runs > 0 {
        let mut message = format!(
            "the {step} step of `{}` is not complete: trybuild's report above names the cases that failed.\n",
            manifest.exercise
        );
        message.push_str("What each case of this step proves:\n");
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
