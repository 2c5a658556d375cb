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
/// has it, the `no-panic` cases, which build the crate in release mode,
/// and the long sweeps (cases marked `sweep`): `cargo xsafe check --full`.
/// Without it, the release-build cases and the sweeps (the *deferred*
/// cases) run, and the cases marked `miri` run under Miri, only once every
/// other case passes: then they alone decide whether the exercise is
/// done, so that it is done exactly when the full grade says so.
pub fn grade(course: &Course, index: usize, toolchain: &str, full: bool) -> Graded {
    grade_showing(course, index, toolchain, full, |_| {})
}

/// [`grade`], handing `quick` the quick grade's report first when the
/// deferred cases run after it: the screen shows what the learner's edit
/// changed without waiting for the long cases.
pub fn grade_showing(
    course: &Course,
    index: usize,
    toolchain: &str,
    full: bool,
    quick: impl FnOnce(Graded),
) -> Graded {
    let exercise = &course.exercises[index];
    let started = Instant::now();
    // The key of the content graded: taken before the grade, so that a save
    // during the grade makes the record stale rather than wrong.
    let key = progress::content_key(exercise, &progress::learner_blobs(exercise), toolchain);
    // Miri on each grade only when the learner asked for the full grade.
    let run = |release: bool, miri: bool, only: Vec<String>| {
        let request = sandboxed(course, exercise, release, miri, only);
        xsafe_grade::timing("the exercise copied to its sandbox", started);
        request.and_then(|request| xsafe_grade::grade(&request).map_err(|err| err.to_string()))
    };
    let result = match run(full, full, Vec::new()) {
        Ok(grade) => {
            let deferred = deferred_cases(&grade);
            let mut report = ExerciseReport::graded(&grade, Vec::new(), None, started.elapsed());
            // When every case but the deferred ones passed, those alone
            // decide whether the exercise is done: a quick grade runs them
            // now, and only them (the builds are kept warm), so a learner
            // who is done sees it without knowing about `--full`, and the
            // other cases are not run twice. The screen shows the quick
            // grade meanwhile.
            let unfinished = report
                .cases
                .iter()
                .any(|case| case.status != xsafe_report::CaseStatus::Passed);
            if !full && unfinished && only_deferred_cases_missing(&report, &deferred) {
                xsafe_grade::timing("quick grade shown", started);
                quick(Graded {
                    index,
                    result: Ok(report.clone()),
                    took: started.elapsed(),
                });
                // The cases marked `miri` are graded again with them,
                // under Miri too (they passed natively).
                let mut confirming = deferred.clone();
                confirming.extend(
                    grade
                        .outcomes
                        .iter()
                        .filter(|(case, _)| case.miri)
                        .map(|(case, _)| case.name()),
                );
                match run(true, true, confirming) {
                    Ok(release) => {
                        let merged = with_outcomes_of(grade, &release);
                        report =
                            ExerciseReport::graded(&merged, Vec::new(), None, started.elapsed());
                    }
                    // The quick grade stands; its deferred cases say why
                    // they did not run.
                    Err(err) => {
                        for case in &mut report.cases {
                            if deferred.contains(&case.name) {
                                case.reason = Some(format!("the long cases could not run: {err}"));
                            }
                        }
                    }
                }
            }
            State::update(course, |state| {
                // A quick grade leaves the deferred cases not run: it must
                // not undo a full grade of the same content that passed
                // them, or `--full` could never mark it done.
                let keeps_full = !full
                    && state
                        .recorded(exercise, &key)
                        .is_some_and(progress::Recorded::complete)
                    && only_deferred_cases_missing(&report, &deferred);
                if !keeps_full {
                    state.record(exercise, key, &report);
                }
            });
            Ok(report)
        }
        Err(err) => Err(err),
    };
    xsafe_grade::timing("grade recorded", started);
    Graded {
        index,
        result,
        took: started.elapsed(),
    }
}

/// The cases a quick grade leaves to run once every other case passes:
/// the release-build (`no-panic`) cases and the long sweeps.
fn deferred_cases(grade: &xsafe_grade::Grade) -> Vec<String> {
    grade
        .outcomes
        .iter()
        .map(|(case, _)| case)
        .filter(|case| case.expect == xsafe_grade::Expect::NoPanic || case.sweep)
        .map(|case| case.name())
        .collect()
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
        job_cache_bytes: 0,
    })
}

/// Whether every case of `report` that did not pass is one of the
/// `deferred` cases (release-build cases and sweeps), not run.
fn only_deferred_cases_missing(report: &ExerciseReport, deferred: &[String]) -> bool {
    report.compiles()
        && report
            .cases
            .iter()
            .filter(|case| case.status != xsafe_report::CaseStatus::Passed)
            .all(|case| {
                deferred.contains(&case.name) && case.status == xsafe_report::CaseStatus::NotRun
            })
}

#[cfg(test)]
mod tests {
    use super::*;
    use xsafe_report::{CaseReport, CaseStatus, ExerciseStatus};

    fn case(name: &str, expect: &str, status: CaseStatus) -> CaseReport {
        CaseReport {
            name: name.to_owned(),
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
    /// a deferred case (release build or sweep) it did not run; any other
    /// shortfall, a sweep that failed or a case that is not deferred,
    /// replaces it.
    #[test]
    fn only_unrun_deferred_cases_keep_a_full_grade() {
        let deferred = [
            "consumption/release".to_owned(),
            "consumption/sweep".to_owned(),
        ];
        let missing = |cases| only_deferred_cases_missing(&report(cases), &deferred);
        let passed = case("consumption/x", "pass", CaseStatus::Passed);
        let release = |status| case("consumption/release", "no-panic", status);
        let sweep = |status| case("consumption/sweep", "pass", status);
        assert!(missing(vec![passed.clone(), release(CaseStatus::NotRun)]));
        assert!(missing(vec![
            passed.clone(),
            release(CaseStatus::NotRun),
            sweep(CaseStatus::NotRun)
        ]));
        assert!(!missing(vec![passed.clone(), release(CaseStatus::Failed)]));
        assert!(!missing(vec![passed.clone(), sweep(CaseStatus::Failed)]));
        assert!(!missing(vec![
            case("consumption/x", "pass", CaseStatus::NotRun),
            release(CaseStatus::NotRun)
        ]));
        assert!(!missing(vec![
            case("consumption/x", "pass", CaseStatus::Failed),
            release(CaseStatus::NotRun),
        ]));
        let mut broken = report(vec![release(CaseStatus::NotRun)]);
        broken.crate_errors = Some("error".to_owned());
        assert!(!only_deferred_cases_missing(&broken, &deferred));
    }
}
