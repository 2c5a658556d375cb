//! The proofs that grading is honest, run for every exercise of the course:
//!
//! 1. the reference solution scores full marks;
//! 2. the starter fails every case that needs the learner's work, and passes
//!    only the cases the manifest marks as `given`;
//! 3. alternative correct solutions (overlays with no `fails`) score full
//!    marks: the cases do not depend on how a solution is written;
//! 4. each wrong solution (an overlay with `fails`) fails exactly the cases it
//!    lists, so it loses marks on the case meant to catch it and no other.
//!
//! Every grade runs in a sandbox: a fresh copy of the exercise with the
//! submission's learner files, as an instructor's grader would build it.

use xsafe_grading_proofs::{
    Submission, describe, exercises, grade_submission, toolchain_label, toolchains,
    variant_toolchains,
};

/// Proof 1: the solution passes every case.
#[test]
fn solutions_score_full_marks() {
    for toolchain in toolchains() {
        for exercise in exercises() {
            let grade = grade_submission(&exercise, Submission::Solution, &toolchain);
            assert!(
                grade.failing().is_empty(),
                "the solution of {} must pass every case with {}:\n{}",
                exercise.name,
                toolchain_label(&toolchain),
                describe(&grade)
            );
            assert_eq!(grade.points(), grade.manifest.total_points());
            // The exercise's API is the solution's public surface, as the
            // manifest lists it: `--bin api` writes the list.
            if let Some(surface) = &grade.surface {
                let api: Vec<&String> = grade.manifest.surface.api.iter().collect();
                assert!(
                    surface.iter().eq(api.iter().copied()),
                    "the [surface] api of {} is not the solution's public surface: run `cargo run -p xsafe-grading-proofs --bin api {}`",
                    exercise.name,
                    exercise.name
                );
            }
        }
    }
}

/// Proof 2: the starter fails exactly the cases that are not `given`.
#[test]
fn starters_fail_every_case_that_needs_work() {
    for toolchain in toolchains() {
        for exercise in exercises() {
            let grade = grade_submission(&exercise, Submission::Starter, &toolchain);
            let needs_work = grade.manifest.cases_needing_work();
            assert!(
                !needs_work.is_empty(),
                "{} leaves the learner no work",
                exercise.name
            );
            assert_eq!(
                grade.failing(),
                needs_work,
                "the starter of {} must fail exactly the cases that need work, with {}:\n{}",
                exercise.name,
                toolchain_label(&toolchain),
                describe(&grade)
            );
            // What the starter itself declares, and the reference keeps,
            // is required: the allow list may not make it optional.
            if let Some(items) = &grade.surface {
                let surface = &grade.manifest.surface;
                let optional_but_given: Vec<&String> = items
                    .iter()
                    .filter(|item| surface.api.contains(item) && !surface.is_required(item))
                    .collect();
                assert!(
                    optional_but_given.is_empty(),
                    "{}: the starter declares {optional_but_given:?}, which the reference keeps, yet [surface] allow lists them as optional: remove them from the allow list",
                    exercise.name
                );
            }
        }
    }
}

/// Proofs 3 and 4: every variant fails exactly the cases it declares.
/// Every variant is graded before the test fails, and the failure lists
/// each variant that scored otherwise.
#[test]
fn variants_score_as_declared() {
    let mut problems = Vec::new();
    for toolchain in variant_toolchains() {
        for exercise in exercises() {
            let variants = exercise.variants();
            assert!(
                variants
                    .iter()
                    .any(|variant| variant.fails.is_empty() && variant.fails_under_miri.is_empty()),
                "{} needs at least one alternative correct solution",
                exercise.name
            );
            assert!(
                variants
                    .iter()
                    .filter(
                        |variant| !variant.fails.is_empty() || !variant.fails_under_miri.is_empty()
                    )
                    .count()
                    >= 3,
                "{} needs at least three wrong solutions",
                exercise.name
            );
            for variant in &variants {
                let grade = grade_submission(&exercise, Submission::Variant(variant), &toolchain);
                for name in &variant.fails {
                    assert!(
                        grade.outcome(name).is_some(),
                        "variant `{}` of {} names an unknown case `{name}`",
                        variant.name,
                        exercise.name
                    );
                }
                let mut failing = grade.failing();
                failing.sort();
                let mut listed = variant.fails.clone();
                if xsafe_grade::miri::Miri::find().is_ok() {
                    listed.extend(variant.fails_under_miri.iter().cloned());
                } else if !variant.fails_under_miri.is_empty() {
                    eprintln!(
                        "variant `{}` of {}: Miri is not installed here, so {:?} are expected to pass",
                        variant.name, exercise.name, variant.fails_under_miri
                    );
                }
                listed.sort();
                listed.dedup();
                // Cases that catch the variant only in some runs count
                // either way (see `Overlay::may_fail`).
                failing.retain(|case| listed.contains(case) || !variant.may_fail.contains(case));
                if failing != listed {
                    problems.push(format!(
                        "variant `{}` of {} ({}) must fail exactly the cases it lists (in any order), with {}:\n  listed:  {listed:?}\n  failing: {failing:?}\n{}",
                        variant.name,
                        exercise.name,
                        variant.about,
                        toolchain_label(&toolchain),
                        describe(&grade)
                    ));
                }
            }
        }
    }
    assert!(
        problems.is_empty(),
        "{} variant(s) scored otherwise than declared:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}
