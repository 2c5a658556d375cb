//! Grading every exercise of a submission: one sandbox per exercise, built
//! from the pristine course and the learner files, graded with the limits,
//! `jobs` exercises at a time, into one shared target directory (the
//! engine's builds take turns on it, outside their time limits).
//!
//! Nothing a submission contains can stop the grade: a missing exercise, a
//! sandbox that cannot be built, a grade that fails, or even a bug of the
//! grader on one exercise (a panic) becomes that exercise's reason, with 0
//! points, and the others are still graded.

use crate::report::{ExerciseReport, ExerciseStatus, Ignored};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::time::Instant;
use xsafe_grade::{Course, CourseExercise, Freshness, GradeRequest, Limits, grade, in_parallel};
use xsafe_sandbox::submission::{
    self, display, escape, ignored_in_exercise, is_real_dir, within_budget,
};
use xsafe_sandbox::{SandboxSpec, build_sandbox};

/// Where and how to grade.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The pristine course.
    pub course: Course,
    /// The submission's exercises folder.
    pub exercises_root: PathBuf,
    /// This grade's own folder (a slot no other grade uses at the same
    /// time): one sandbox and one engine folder per exercise, reused by a
    /// later grade of the same submission so that it is warm.
    pub slot: PathBuf,
    /// The shared target directory.
    pub target_dir: PathBuf,
    /// The limits of every build and run.
    pub limits: Limits,
    /// How much of each exercise of the submission the grader takes on.
    pub budget: submission::Budget,
    /// Exercises graded at once.
    pub jobs: usize,
    /// The rustup toolchain to grade with, if not the default.
    pub toolchain: Option<String>,
    /// The seed of every behaviour case's inputs, if fixed.
    pub seed: Option<u64>,
    /// Whether the cases marked `miri` also run under Miri.
    pub miri: bool,
    /// The budget of the engine's cache of job outputs (0: none).
    pub job_cache_bytes: u64,
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
    if !is_real_dir(&submitted) {
        let why = if std::fs::symlink_metadata(&submitted).is_ok() {
            format!(
                "the submission's exercises/{} is not a folder (a symbolic link is never followed)",
                exercise.name()
            )
        } else {
            format!("the submission has no exercises/{}", exercise.name())
        };
        return ExerciseReport::ungraded(
            manifest,
            ExerciseStatus::Missing,
            why,
            Vec::new(),
            started.elapsed(),
        );
    }
    // Everything below grows with the submission's files: past the budget,
    // the exercise is not graded, before any of it is read.
    if let Err(why) = within_budget(&submitted, plan.budget) {
        return ExerciseReport::ungraded(
            manifest,
            ExerciseStatus::Refused,
            format!(
                "the submission's exercises/{} is too large to grade: {why}",
                exercise.name()
            ),
            Vec::new(),
            started.elapsed(),
        );
    }
    let mut ignored: Vec<Ignored> =
        ignored_in_exercise(&exercise.dir, &submitted, &manifest.learner_files)
            .into_iter()
            .map(Ignored::from)
            .collect();
    let lockfile = plan.course.root.join("Cargo.lock");
    let spec = SandboxSpec {
        exercise_dir: &exercise.dir,
        learner_dir: Some(&submitted),
        overlay: None,
        lockfile: lockfile.is_file().then_some(lockfile.as_path()),
    };
    let sandbox_dir = plan.slot.join("sandboxes").join(exercise.name());
    let sandbox = match build_sandbox(&spec, &sandbox_dir) {
        Ok(sandbox) => sandbox,
        Err(err) => {
            return ExerciseReport::ungraded(
                manifest,
                ExerciseStatus::Error,
                format!(
                    "cannot copy the submission into a sandbox: {}",
                    escape(&err.to_string())
                ),
                ignored,
                started.elapsed(),
            );
        }
    };
    // What the copy left out (links, special files, unsafe names) is in
    // `ignored` already: the listing sees the same entries. A learner root
    // reached through a link is missing, and listed below.
    let reason = (!sandbox.missing.is_empty()).then(|| {
        format!(
            "the submission lacks learner files (a symbolic link is never followed): {}",
            sandbox
                .missing
                .iter()
                .map(|path| display(path))
                .collect::<Vec<_>>()
                .join(", ")
        )
    });
    for missing in &sandbox.missing {
        if std::fs::symlink_metadata(submitted.join(missing))
            .is_ok_and(|meta| meta.file_type().is_symlink())
        {
            ignored.push(Ignored {
                path: display(missing),
                change: crate::report::Change::Symlink,
            });
        }
    }
    ignored.sort();
    ignored.dedup();
    let request = GradeRequest {
        crate_dir: sandbox.dir.clone(),
        pristine: exercise.dir.clone(),
        freshness: Freshness::PerGrade,
        work_dir: plan.slot.join("work").join(exercise.name()),
        target_dir: plan.target_dir.clone(),
        lockfile: lockfile.is_file().then_some(lockfile),
        limits: plan.limits,
        seed: plan.seed,
        miri: plan.miri,
        full: true,
        only: Vec::new(),
        toolchain: plan.toolchain.clone(),
        show_paths: vec![(sandbox.dir, format!("exercises/{}", exercise.name()))],
        job_cache_bytes: plan.job_cache_bytes,
    };
    match grade(&request) {
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
