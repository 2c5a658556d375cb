//! Grading an exercise for the learner: the exercise's folder as it is
//! (cases included) is brought into a sandbox under `target/xsafe` as the
//! instructor's grader does (path dependencies made absolute, so that an
//! exercise with macro crates grades too), the engine grades it, the grade
//! becomes the report model that the grader uses too ([`ExerciseReport`]),
//! and the result is recorded so that `list` and the next start know it
//! without grading.

use crate::course::{Course, CourseDirs, Exercise};
use crate::progress::{self, State};
use std::time::{Duration, Instant};
use xsafe_grade::{GradeRequest, Limits};
use xsafe_report::ExerciseReport;
use xsafe_sandbox::{SandboxSpec, build_sandbox};

/// A finished grade.
#[derive(Debug, Clone)]
pub struct Graded {
    /// The exercise's index in the course.
    pub index: usize,
    /// What the grade found, or why the exercise could not be graded (a
    /// problem of the course or of the machine, never of the learner).
    pub result: Result<ExerciseReport, String>,
    /// How long it took.
    pub took: Duration,
}

/// Grades `exercise` (the `index`th of the course) and records the result.
/// `full` also runs the cases marked `miri` under Miri, where the machine
/// has it, and the `no-panic` cases, which build the crate in release mode
/// (slower: `cargo xsafe check --full`). Without it, Miri is not run, and
/// the `no-panic` cases run only once every other case passes: then they
/// alone decide whether the exercise is done.
pub fn grade(course: &Course, index: usize, toolchain: &str, full: bool) -> Graded {
    let exercise = &course.exercises[index];
    let started = Instant::now();
    // The key of the content graded: taken before the grade, so that a save
    // during the grade makes the record stale rather than wrong.
    let key = progress::content_key(exercise, &progress::learner_blobs(exercise), toolchain);
    // Miri only when the learner asked for the full grade.
    let run = |release: bool, only: Vec<String>| {
        sandboxed(course, exercise, release, full, only)
            .and_then(|request| xsafe_grade::grade(&request).map_err(|err| err.to_string()))
    };
    let result = match run(full, Vec::new()) {
        Ok(grade) => {
            let mut report = ExerciseReport::graded(&grade, Vec::new(), None, started.elapsed());
            // When every case but the release-build ones passed, those
            // alone decide whether the exercise is done: a quick grade
            // runs them now, and only them (a release build, kept warm),
            // so a learner who is done sees it without knowing about
            // `--full`, and the other cases are not run twice.
            let unfinished = report
                .cases
                .iter()
                .any(|case| case.status != xsafe_report::CaseStatus::Passed);
            if !full && unfinished && only_release_cases_missing(&report) {
                let release_cases: Vec<String> = report
                    .cases
                    .iter()
                    .filter(|case| case.expect == "no-panic")
                    .map(|case| case.name.clone())
                    .collect();
                if let Ok(release) = run(true, release_cases) {
                    let merged = with_outcomes_of(grade, &release);
                    report = ExerciseReport::graded(&merged, Vec::new(), None, started.elapsed());
                }
            }
            State::update(course, |state| {
                // A quick grade leaves the release-build cases not run: it
                // must not undo a full grade of the same content that
                // passed them, or `--full` could never mark it done.
                let keeps_full = !full
                    && state
                        .recorded(exercise, &key)
                        .is_some_and(progress::Recorded::complete)
                    && only_release_cases_missing(&report);
                if !keeps_full {
                    state.record(exercise, key, &report);
                }
            });
            Ok(report)
        }
        Err(err) => Err(err),
    };
    Graded {
        index,
        result,
        took: started.elapsed(),
    }
}

/// `quick`, with the outcome of every case that `release` graded (the
/// release-build cases, which the quick grade did not run).
fn with_outcomes_of(
    mut quick: xsafe_grade::Grade,
    release: &xsafe_grade::Grade,
) -> xsafe_grade::Grade {
    for (case, outcome) in &mut quick.outcomes {
        if let Some(graded) = release.outcome(&case.name()) {
            *outcome = graded.clone();
        }
    }
    quick
}

/// The engine's request for grading `exercise` as it is, from its sandbox:
/// with the release-build cases when `release`, under Miri when `miri`,
/// only the cases named in `only` (none named: every case).
fn sandboxed(
    course: &Course,
    exercise: &Exercise,
    release: bool,
    miri: bool,
    only: Vec<String>,
) -> Result<GradeRequest, String> {
    let lockfile = course.root.join("Cargo.lock");
    let spec = SandboxSpec {
        exercise_dir: &exercise.dir,
        learner_dir: Some(&exercise.dir),
        overlay: None,
        lockfile: lockfile.is_file().then_some(lockfile.as_path()),
    };
    let dest = course.work_dir().join("sandboxes").join(exercise.name());
    let sandbox = build_sandbox(&spec, &dest)
        .map_err(|err| format!("cannot copy the exercise to grade it: {err}"))?;
    Ok(GradeRequest {
        crate_dir: sandbox.dir.clone(),
        // The learner's own code: the trusted builds start from the same
        // folder, and build folders are kept so that a re-grade is warm.
        pristine: exercise.dir.clone(),
        freshness: xsafe_grade::Freshness::Kept,
        work_dir: course.work_dir().join("work").join(exercise.name()),
        target_dir: course.build_dir(),
        lockfile: Some(course.root.join("Cargo.lock")),
        limits: Limits::default(),
        seed: None,
        miri,
        full: release,
        only,
        toolchain: None,
        // The compiler's paths as the learner sees them from the course's
        // root, where `cargo xsafe` runs.
        show_paths: vec![(sandbox.dir, format!("exercises/{}", exercise.name()))],
    })
}

/// Whether every case of `report` that did not pass is a release-build
/// case (`no-panic`) that a quick grade does not run.
fn only_release_cases_missing(report: &ExerciseReport) -> bool {
    report.compiles()
        && report
            .cases
            .iter()
            .filter(|case| case.status != xsafe_report::CaseStatus::Passed)
            .all(|case| {
                case.expect == "no-panic" && case.status == xsafe_report::CaseStatus::NotRun
            })
}

#[cfg(test)]
mod tests {
    use super::*;
    use xsafe_report::{CaseReport, CaseStatus, ExerciseStatus};

    fn case(expect: &str, status: CaseStatus) -> CaseReport {
        CaseReport {
            name: "consumption/x".to_owned(),
            step: "consumption".to_owned(),
            expect: expect.to_owned(),
            proves: String::new(),
            status,
            points: 0,
            max_points: 2,
            reason: None,
            details: String::new(),
        }
    }

    fn report(cases: Vec<CaseReport>) -> ExerciseReport {
        ExerciseReport {
            name: "branded-indices".to_owned(),
            title: String::new(),
            status: ExerciseStatus::Graded,
            reason: None,
            crate_errors: None,
            points: 0,
            max_points: 4,
            steps: Vec::new(),
            cases,
            ignored: Vec::new(),
            seconds: 0.0,
        }
    }

    /// A quick grade keeps a full grade's record only when all it lacks is
    /// a release-build case it did not run; any other shortfall replaces it.
    #[test]
    fn only_unrun_release_cases_keep_a_full_grade() {
        let passed = case("pass", CaseStatus::Passed);
        assert!(only_release_cases_missing(&report(vec![
            passed.clone(),
            case("no-panic", CaseStatus::NotRun),
        ])));
        assert!(!only_release_cases_missing(&report(vec![
            passed.clone(),
            case("no-panic", CaseStatus::Failed),
        ])));
        assert!(!only_release_cases_missing(&report(vec![
            case("pass", CaseStatus::Failed),
            case("no-panic", CaseStatus::NotRun),
        ])));
        let mut broken = report(vec![case("no-panic", CaseStatus::NotRun)]);
        broken.crate_errors = Some("error".to_owned());
        assert!(!only_release_cases_missing(&broken));
    }
}
