//! Grading every exercise of a submission: one sandbox per exercise, built
//! from the pristine course and the learner files, graded with the limits,
//! `jobs` exercises at a time, into one shared target directory.
//!
//! Nothing a submission contains can stop the grade: a missing exercise, a
//! sandbox that cannot be built, a grade that fails, or even a bug of the
//! grader on one exercise (a panic) becomes that exercise's reason, with 0
//! points, and the others are still graded.

use crate::report::{ExerciseReport, ExerciseStatus};
use crate::submission::{display, ignored_in_exercise};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;
use xsafe_grade::{Course, CourseExercise, GradeRequest, Limits, grade_crate, in_parallel};
use xsafe_sandbox::{SandboxSpec, build_sandbox};

/// Where and how to grade.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The pristine course.
    pub course: Course,
    /// The submission's exercises folder.
    pub exercises_root: PathBuf,
    /// Where the sandboxes go (one per exercise, reused between runs so
    /// that a second grade is warm).
    pub sandboxes: PathBuf,
    /// The shared target directory.
    pub target_dir: PathBuf,
    /// The limits of every build and run.
    pub limits: Limits,
    /// Exercises graded at once.
    pub jobs: usize,
}

/// Grades `exercises` (of `plan.course`), calling `progress` as each one
/// starts and ends, and returns their reports in the same order.
pub fn grade_all(
    plan: &Plan,
    exercises: &[&CourseExercise],
    progress: &(dyn Fn(Event<'_>) + Sync),
) -> Vec<ExerciseReport> {
    in_parallel(exercises, plan.jobs, |exercise| {
        progress(Event::Started(exercise.name()));
        let report = grade_guarded(plan, exercise);
        progress(Event::Finished(&report));
        report
    })
}

/// What [`grade_all`] is doing.
#[derive(Debug, Clone, Copy)]
pub enum Event<'a> {
    /// An exercise's grade started.
    Started(&'a str),
    /// An exercise's grade ended.
    Finished(&'a ExerciseReport),
}

/// [`grade_one`], with a panic turned into the exercise's error.
fn grade_guarded(plan: &Plan, exercise: &CourseExercise) -> ExerciseReport {
    let started = Instant::now();
    match panic::catch_unwind(AssertUnwindSafe(|| grade_one(plan, exercise))) {
        Ok(report) => report,
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("no message");
            ExerciseReport::ungraded(
                &exercise.manifest,
                ExerciseStatus::Error,
                format!(
                    "the grader failed on this exercise (a grader bug, please report it): {message}"
                ),
                Vec::new(),
                started.elapsed(),
            )
        }
    }
}

fn grade_one(plan: &Plan, exercise: &CourseExercise) -> ExerciseReport {
    let started = Instant::now();
    let manifest = &exercise.manifest;
    let submitted = plan.exercises_root.join(exercise.name());
    if !submitted.is_dir() {
        return ExerciseReport::ungraded(
            manifest,
            ExerciseStatus::Missing,
            format!("the submission has no exercises/{}", exercise.name()),
            Vec::new(),
            started.elapsed(),
        );
    }
    let ignored = ignored_in_exercise(&exercise.dir, &submitted, &manifest.learner_files);
    let lockfile = plan.course.root.join("Cargo.lock");
    let spec = SandboxSpec {
        exercise_dir: &exercise.dir,
        learner_dir: Some(&submitted),
        overlay: None,
        lockfile: lockfile.is_file().then_some(lockfile.as_path()),
    };
    let dest = plan.sandboxes.join(exercise.name());
    let sandbox = match build_sandbox(&spec, &dest) {
        Ok(sandbox) => sandbox,
        Err(err) => {
            return ExerciseReport::ungraded(
                manifest,
                ExerciseStatus::Error,
                format!("cannot copy the submission into a sandbox: {err}"),
                ignored,
                started.elapsed(),
            );
        }
    };
    let reason = (!sandbox.missing.is_empty()).then(|| {
        format!(
            "the submission lacks learner files: {}",
            sandbox
                .missing
                .iter()
                .map(|path| display(path))
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    let request = GradeRequest {
        target_dir: Some(plan.target_dir.clone()),
        limits: plan.limits,
        ..GradeRequest::new(sandbox.dir)
    };
    match grade_crate(&request) {
        Ok(grade) => ExerciseReport::graded(&grade, ignored, reason, started.elapsed()),
        Err(err) => ExerciseReport::ungraded(
            manifest,
            ExerciseStatus::Error,
            format!("cannot grade: {err}"),
            ignored,
            started.elapsed(),
        ),
    }
}
