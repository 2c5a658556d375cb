//! The API mutation pass, sampled: for every exercise, a few of the wrong
//! solutions `api_mutants` writes from the reference (evenly spread over
//! its list), each graded on the default toolchain, must lose points, not
//! compile, or be a survivor the exercise justifies. The whole pass runs
//! apart (`cargo run -p xsafe-grading-proofs --bin api-mutants -- --write`)
//! and its last result is in each exercise's `grading/ROUTES.md`, which
//! this test checks is there.

use xsafe_grading_proofs::api_mutants::{ROUTES_START, justified, of_exercise, sample};
use xsafe_grading_proofs::{Submission, describe, exercises, grade_submission};

/// How many mutants of each exercise `.ci/run` grades.
const SAMPLE: usize = 4;

/// Every exercise has API mutants, and each sampled one is caught (some
/// case fails), unviable, or a justified survivor.
#[test]
fn sampled_api_mutants_lose_points() {
    let mut problems = Vec::new();
    for exercise in exercises() {
        let all = of_exercise(&exercise.solution);
        assert!(
            !all.is_empty(),
            "the API mutation pass writes no mutant of {}",
            exercise.name
        );
        let accepted = justified(&exercise.solution).unwrap_or_else(|err| panic!("{err}"));
        for (number, mutant) in sample(all, SAMPLE).into_iter().enumerate() {
            let grade = grade_submission(
                &exercise,
                Submission::Replaced(&mutant.file, &format!("sample{number}"), &mutant.text),
                &None,
            );
            let survived = grade.crate_errors.is_none() && grade.failing().is_empty();
            if survived && !accepted.iter().any(|j| j.mutant == mutant.name) {
                problems.push(format!(
                    "{}: the mutant `{}` keeps full marks:\n{}",
                    exercise.name,
                    mutant.name,
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
            "{} has no API mutation pass: run `cargo run -p xsafe-grading-proofs --bin api-mutants -- {} --write`",
            path.display(),
            exercise.name
        );
    }
}
