//! The learner's tool checks the compile-fail cases that passed in its last
//! grade in one compiler run, and compiles alone only the cases the batch
//! cannot decide (`ci/grade/src/compile_fail_batch.rs`); it checks
//! (`cargo check`) the compile-fail programs whose annotations allow it
//! rather than building them (`ci/grade/src/compile_fail_check.rs`). Here
//! every wrong solution that fails a compile-fail case, and one correct
//! solution in another style, of every exercise is graded the tool's way
//! right after its batch was told that every compile-fail case passed
//! (exercises with learner macros have no batch), the state a learner is
//! in after breaking a finished exercise: each must fail exactly the
//! compile-fail cases its variant declares, as the grader's builds make it
//! fail (`honest_grading.rs`). First, each exercise's reference solution
//! gets the tool's quick grade (every case but the deferred ones, which
//! its observing program leaves out), twice, and then the deferred cases
//! alone: it must pass them all, each time.

use xsafe_grade::{Expect, Manifest};
use xsafe_grading_proofs::{
    Submission, describe, exercises, grade_in_learner_tool, learner_tool_work_dir, toolchain_label,
    variant_toolchains,
};

/// Whether a folder of the exercise holds a procedural macro crate (the
/// engine does not batch those: their macros are recorded per program).
fn has_macro_crate(dir: &std::path::Path) -> bool {
    walkdir::WalkDir::new(dir)
        .max_depth(2)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_name() == "Cargo.toml")
        .any(|entry| {
            std::fs::read_to_string(entry.path()).is_ok_and(|text| text.contains("proc-macro"))
        })
}

#[test]
fn the_batch_gives_every_variant_its_declared_compile_fail_verdicts() {
    let mut problems = Vec::new();
    let mut batched_grades = 0;
    for toolchain in variant_toolchains().into_iter().take(1) {
        for exercise in exercises() {
            let batched = !has_macro_crate(&exercise.starter);
            let manifest = Manifest::load(&exercise.starter.join("grading")).expect("manifest");
            let cases: Vec<xsafe_grade::Case> = manifest
                .cases
                .iter()
                .filter(|case| case.expect == Expect::CompileFail)
                .cloned()
                .collect();
            if cases.len() < 2 {
                continue;
            }
            let names: Vec<String> = cases.iter().map(xsafe_grade::Case::name).collect();
            let work = learner_tool_work_dir(&exercise, &toolchain);
            // The quick grade builds only the cases it runs (the long
            // sweeps wait in a program of their own): the reference
            // solution passes every one of them, and the deferred ones,
            // run alone as the tool then runs them, pass too.
            let quick = grade_in_learner_tool(
                &exercise,
                Submission::Solution,
                &toolchain,
                Vec::new(),
                false,
            );
            let deferred: Vec<String> = manifest
                .cases
                .iter()
                .filter(|case| case.sweep || case.expect == Expect::NoPanic)
                .map(xsafe_grade::Case::name)
                .collect();
            // Graded again with nothing changed, as a learner who runs
            // `cargo xsafe check` twice: the same (a kept build compiles
            // nothing again, yet the learner's macros must be recorded).
            let again = grade_in_learner_tool(
                &exercise,
                Submission::Solution,
                &toolchain,
                Vec::new(),
                false,
            );
            assert_eq!(
                again.failing(),
                quick.failing(),
                "the solution of {} graded again in the learner's tool, nothing changed:\n{}",
                exercise.name,
                describe(&again)
            );
            let mut left: Vec<String> = quick.failing();
            left.sort();
            let mut expected_left = deferred.clone();
            expected_left.sort();
            assert_eq!(
                left,
                expected_left,
                "the solution of {} in the learner's tool's quick grade: only the deferred cases may be left, not run:\n{}",
                exercise.name,
                describe(&quick)
            );
            if !deferred.is_empty() {
                let long = grade_in_learner_tool(
                    &exercise,
                    Submission::Solution,
                    &toolchain,
                    deferred.clone(),
                    true,
                );
                assert!(
                    long.failing().is_empty(),
                    "the solution of {} fails deferred cases run alone in the learner's tool:\n{}",
                    exercise.name,
                    describe(&long)
                );
            }
            let solution = grade_in_learner_tool(
                &exercise,
                Submission::Solution,
                &toolchain,
                names.clone(),
                true,
            );
            assert!(
                solution.failing().is_empty(),
                "the solution of {} fails compile-fail cases in the learner's tool:\n{}",
                exercise.name,
                describe(&solution)
            );
            // The variants whose declared failures include a compile-fail
            // case (the batch must hand them to the builds alone), and one
            // correct solution in another style (the batch decides every
            // case): the others change nothing the batch sees, and each
            // grade here costs a build of the observing program.
            let variants = exercise.variants();
            let correct = variants
                .iter()
                .find(|variant| variant.fails.is_empty() && variant.fails_under_miri.is_empty());
            let sample = variants.iter().filter(|variant| {
                variant.fails.iter().any(|case| names.contains(case))
                    || correct.is_some_and(|correct| correct.name == variant.name)
            });
            for variant in sample {
                // Every compile-fail case in the batch, as after the
                // solution's grade.
                xsafe_grade::compile_fail_batch::remember(&work, &cases, |_| true);
                let grade = grade_in_learner_tool(
                    &exercise,
                    Submission::Variant(variant),
                    &toolchain,
                    names.clone(),
                    true,
                );
                // A grade of compile-fail cases alone runs no behaviour
                // case: its workspace is the quick grade's.
                if batched {
                    assert!(
                        work.join("build-quick/cases/compile_fail_batch.rs")
                            .is_file(),
                        "the grade of `{}` of {} made no batch",
                        variant.name,
                        exercise.name
                    );
                    batched_grades += 1;
                }
                let mut failing = grade.failing();
                failing.retain(|case| {
                    variant.fails.contains(case) || !variant.may_fail.contains(case)
                });
                failing.sort();
                let mut listed: Vec<String> = variant
                    .fails
                    .iter()
                    .filter(|case| names.contains(case))
                    .cloned()
                    .collect();
                listed.sort();
                if failing != listed {
                    problems.push(format!(
                        "variant `{}` of {} with {}, graded the learner's tool's way:\n  listed:  {listed:?}\n  failing: {failing:?}\n{}",
                        variant.name,
                        exercise.name,
                        toolchain_label(&toolchain),
                        describe(&grade)
                    ));
                }
            }
        }
    }
    assert!(
        batched_grades > 0
            || exercises()
                .iter()
                .all(|exercise| has_macro_crate(&exercise.starter)),
        "no exercise has compile-fail cases to batch"
    );
    assert!(
        problems.is_empty(),
        "{} variant(s) got other compile-fail verdicts from the batch:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}
