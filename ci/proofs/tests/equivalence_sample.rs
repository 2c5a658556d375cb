//! The equivalence pass, sampled: for every exercise, a few of the correct
//! rewrites `equivalents` writes from the reference (evenly spread over
//! its list), each graded on the default toolchain, must score full
//! marks. The whole pass runs apart (`cargo run -p xsafe-grading-proofs
//! --bin equivalents -- --write`) and its last result is in each
//! exercise's `grading/ROUTES.md`, which this test checks is there.

use xsafe_grading_proofs::equivalents::{ROUTES_START, of_exercise, sample};
use xsafe_grading_proofs::{Submission, describe, exercises, grade_submission};

/// How many rewrites of each exercise `.ci/run` grades: each grade takes
/// seconds, so a few, spread over the operators.
const SAMPLE: usize = 2;

/// Every exercise has rewrites, and each sampled one compiles and scores
/// full marks.
#[test]
fn sampled_rewrites_score_full_marks() {
    let mut problems = Vec::new();
    for exercise in exercises() {
        let all = of_exercise(&exercise.starter, &exercise.solution)
            .unwrap_or_else(|err| panic!("{err}"));
        assert!(
            !all.is_empty(),
            "the equivalence pass writes no rewrite of {}",
            exercise.name
        );
        for (number, rewrite) in sample(all, SAMPLE).into_iter().enumerate() {
            let grade = grade_submission(
                &exercise,
                Submission::Rewritten(&format!("sample{number}"), &rewrite.files),
                &None,
            );
            if grade.crate_errors.is_some() || !grade.failing().is_empty() {
                problems.push(format!(
                    "{}: the rewrite `{}` is a correct solution and loses marks{}:\n{}",
                    exercise.name,
                    rewrite.name,
                    if grade.crate_errors.is_some() {
                        " (it does not compile: the operator is wrong)"
                    } else {
                        ""
                    },
                    describe(&grade)
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The last full pass of every exercise is written in its ROUTES.md.
#[test]
fn the_last_full_pass_is_checked_in() {
    for exercise in exercises() {
        let path = exercise.starter.join("grading/ROUTES.md");
        let routes = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("{}: {err}", path.display()));
        assert!(
            routes.contains(ROUTES_START),
            "{} has no equivalence pass: run `cargo run -p xsafe-grading-proofs --bin equivalents -- {} --write`",
            path.display(),
            exercise.name
        );
    }
}
