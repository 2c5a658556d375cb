//! The grade report: what the grader found, in one versioned data model
//! that every output format (text, JSON, JUnit, Markdown) is written from.
//!
//! The JSON form is this model serialized as is. Its schema is
//! `ci/grader/report.schema.json`, generated from these types (a test keeps
//! the checked-in file equal to the generated one). [`SCHEMA_VERSION`] goes
//! up by one whenever a field changes meaning or goes away; adding a field
//! does not change it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;
use xsafe_grade::{Case, CaseOutcome, Expect, Grade, Limits, Manifest, Status, StepName};

/// The version of the report's JSON schema.
pub const SCHEMA_VERSION: u32 = 1;

/// What the grader found about one submission.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// Always `"xsafe-grade-report"`.
    pub schema: String,
    /// [`SCHEMA_VERSION`].
    pub version: u32,
    /// The grader's own version (its crate's).
    pub grader_version: String,
    /// The folder (or git checkout) that was graded, as given.
    pub submission: String,
    /// The git revision that was graded, when one was asked for.
    pub revision: Option<String>,
    /// The pristine course the cases came from.
    pub course: String,
    /// The limits every build and run had.
    pub limits: ReportLimits,
    /// Points earned, over every graded exercise.
    pub points: u32,
    /// Points available, over every graded exercise.
    pub max_points: u32,
    /// Wall-clock time of the whole grade, in seconds.
    pub seconds: f64,
    /// Files of the submission that the grader ignored, outside any
    /// exercise (such as an exercise the course does not have).
    pub ignored: Vec<Ignored>,
    /// One entry per exercise, in the book's order.
    pub exercises: Vec<ExerciseReport>,
}

/// The limits, in seconds and bytes.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ReportLimits {
    /// Time allowed for each build (and each compile-fail batch).
    pub build_seconds: f64,
    /// Time allowed for each behaviour case.
    pub case_seconds: f64,
    /// Bytes of output kept per stream before a child is stopped.
    pub output_bytes: usize,
}

impl From<Limits> for ReportLimits {
    fn from(limits: Limits) -> Self {
        ReportLimits {
            build_seconds: limits.build_time.as_secs_f64(),
            case_seconds: limits.case_time.as_secs_f64(),
            output_bytes: limits.output_bytes,
        }
    }
}

/// Whether an exercise could be graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ExerciseStatus {
    /// Its cases ran (whatever their outcomes).
    Graded,
    /// The submission has no such exercise: every case scores 0.
    Missing,
    /// The grader could not grade it (the reason says why): every case
    /// scores 0.
    Error,
}

/// One exercise's grade.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct ExerciseReport {
    /// The exercise's folder name, such as `ordered-tree`.
    pub name: String,
    /// Its title, as in the book.
    pub title: String,
    /// Whether it was graded.
    pub status: ExerciseStatus,
    /// Why it was not graded, or what is wrong with the submitted files (a
    /// learner file the manifest names that is missing).
    pub reason: Option<String>,
    /// Points earned.
    pub points: u32,
    /// Points available.
    pub max_points: u32,
    /// Points per step, in the order definition, enforcement, consumption.
    pub steps: Vec<StepReport>,
    /// Every case, in manifest order.
    pub cases: Vec<CaseReport>,
    /// Files in the submission's copy of the exercise that differ from the
    /// pristine course and were ignored: only learner files are graded.
    pub ignored: Vec<Ignored>,
    /// Wall-clock time of this exercise's grade, in seconds.
    pub seconds: f64,
}

/// One step's points.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct StepReport {
    /// `definition`, `enforcement` or `consumption`.
    pub name: String,
    /// Points earned.
    pub points: u32,
    /// Points available.
    pub max_points: u32,
}

/// How a case came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum CaseStatus {
    /// It passed and earned its points.
    Passed,
    /// A behaviour case's test failed, or a compile-fail case compiled.
    Failed,
    /// A compile-fail case failed to compile, but not with the expected
    /// errors: it failed for another reason than the one it targets.
    WrongDiagnostics,
    /// The course has no snapshot for this compile-fail case (a course bug).
    NoSnapshot,
    /// It could not run: the code does not compile, or the exercise is
    /// missing.
    NotRun,
    /// A limit stopped it (time, output), or it crashed (stack overflow).
    Stopped,
}

/// One case's grade.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct CaseReport {
    /// `STEP/CASE`, such as `enforcement/no_node_literal`.
    pub name: String,
    /// Its step.
    pub step: String,
    /// `pass` (a behaviour case) or `compile-fail`.
    pub expect: String,
    /// What the case proves (its `//! Proves` comment).
    pub proves: String,
    /// How it came out.
    pub status: CaseStatus,
    /// Points earned: `max_points` if it passed, else 0.
    pub points: u32,
    /// Points the case is worth.
    pub max_points: u32,
    /// Why it did not pass, in one line.
    pub reason: Option<String>,
    /// The compiler's or the test's output, trimmed, for a case that did
    /// not pass.
    pub details: String,
}

/// How an ignored file differs from the pristine course.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// The file is not in the pristine course.
    Added,
    /// The file's content differs.
    Modified,
    /// The pristine file is not in the submission.
    Deleted,
    /// A symbolic link, which the grader never follows.
    Symlink,
}

/// A file the grader ignored.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Ignored {
    /// The path, relative to the exercise (or to the submission's
    /// `exercises/` folder for files outside any exercise).
    pub path: String,
    /// How it differs.
    pub change: Change,
}

/// Lines of details kept per case: enough to see the first errors.
const DETAIL_LINES: usize = 60;

impl ExerciseReport {
    /// The report of an exercise that was graded.
    pub fn graded(
        grade: &Grade,
        ignored: Vec<Ignored>,
        reason: Option<String>,
        took: Duration,
    ) -> Self {
        let cases = grade
            .outcomes
            .iter()
            .map(|(case, outcome)| case_report(&grade.manifest, case, outcome))
            .collect();
        ExerciseReport {
            name: grade.manifest.exercise.clone(),
            title: grade.manifest.title.clone(),
            status: ExerciseStatus::Graded,
            reason,
            points: grade.points(),
            max_points: grade.manifest.total_points(),
            steps: StepName::ALL
                .iter()
                .map(|&step| {
                    let (points, max_points) = grade.step_points(step);
                    StepReport {
                        name: step.to_string(),
                        points,
                        max_points,
                    }
                })
                .collect(),
            cases,
            ignored,
            seconds: took.as_secs_f64(),
        }
    }

    /// The report of an exercise that could not be graded: every case is
    /// `not-run` with `reason`, and scores 0.
    pub fn ungraded(
        manifest: &Manifest,
        status: ExerciseStatus,
        reason: String,
        ignored: Vec<Ignored>,
        took: Duration,
    ) -> Self {
        let cases = manifest
            .cases
            .iter()
            .map(|case| {
                let outcome = CaseOutcome {
                    path: case.file.clone(),
                    status: Status::NotRun(reason.clone()),
                    details: String::new(),
                };
                case_report(manifest, case, &outcome)
            })
            .collect();
        ExerciseReport {
            name: manifest.exercise.clone(),
            title: manifest.title.clone(),
            status,
            reason: Some(reason),
            points: 0,
            max_points: manifest.total_points(),
            steps: StepName::ALL
                .iter()
                .map(|&step| StepReport {
                    name: step.to_string(),
                    points: 0,
                    max_points: manifest.cases_of(step).map(|case| case.points).sum(),
                })
                .collect(),
            cases,
            ignored,
            seconds: took.as_secs_f64(),
        }
    }

    /// The cases that did not pass.
    pub fn failing(&self) -> impl Iterator<Item = &CaseReport> {
        self.cases
            .iter()
            .filter(|case| case.status != CaseStatus::Passed)
    }
}

fn case_report(manifest: &Manifest, case: &Case, outcome: &CaseOutcome) -> CaseReport {
    let (status, reason) = match &outcome.status {
        Status::Passed => (CaseStatus::Passed, None),
        Status::Failed if case.expect == Expect::CompileFail => (
            CaseStatus::Failed,
            Some("the program compiled, but the compiler must reject it".to_owned()),
        ),
        Status::Failed => (
            CaseStatus::Failed,
            Some("a test of this case failed".to_owned()),
        ),
        Status::WrongDiagnostics => (
            CaseStatus::WrongDiagnostics,
            Some("the program was rejected, but not with the expected errors".to_owned()),
        ),
        Status::NoSnapshot => (
            CaseStatus::NoSnapshot,
            Some("the course has no .stderr snapshot for this case".to_owned()),
        ),
        Status::NotRun(why) => (CaseStatus::NotRun, Some(why.clone())),
        Status::Stopped(why) => (CaseStatus::Stopped, Some(why.clone())),
    };
    let passed = status == CaseStatus::Passed;
    CaseReport {
        name: case.name(),
        step: case.step.to_string(),
        expect: match case.expect {
            Expect::Pass => "pass".to_owned(),
            Expect::CompileFail => "compile-fail".to_owned(),
        },
        proves: case.proves(manifest),
        status,
        points: if passed { case.points } else { 0 },
        max_points: case.points,
        reason,
        details: outcome
            .details
            .lines()
            .take(DETAIL_LINES)
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

impl Report {
    /// A report over `exercises`, totalled.
    pub fn new(
        submission: &Path,
        revision: Option<String>,
        course: &Path,
        limits: Limits,
        ignored: Vec<Ignored>,
        exercises: Vec<ExerciseReport>,
        took: Duration,
    ) -> Report {
        Report {
            schema: "xsafe-grade-report".to_owned(),
            version: SCHEMA_VERSION,
            grader_version: env!("CARGO_PKG_VERSION").to_owned(),
            submission: submission.display().to_string(),
            revision,
            course: course.display().to_string(),
            limits: limits.into(),
            points: exercises.iter().map(|exercise| exercise.points).sum(),
            max_points: exercises.iter().map(|exercise| exercise.max_points).sum(),
            seconds: took.as_secs_f64(),
            ignored,
            exercises,
        }
    }

    /// The JSON schema of the report, as checked in.
    pub fn json_schema() -> String {
        let schema = schemars::schema_for!(Report);
        serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
    }
}
