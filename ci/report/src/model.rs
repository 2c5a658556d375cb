//! The grade report: what a grade found, in one versioned data model that
//! every surface is written from: the learner's screen (`cargo xsafe`), and
//! the grader's text, JSON, JUnit and Markdown (see [`crate::render`]).
//! An [`ExerciseReport`] is one exercise's grade, made from the engine's
//! [`Grade`] by [`ExerciseReport::graded`] whoever graded it; a [`Report`]
//! is the grader's envelope around a submission's exercises.
//!
//! The JSON form is this model serialized as is. Its schema is
//! `ci/grader/report.schema.json`, generated from these types (a test keeps
//! the checked-in file equal to the generated one). [`SCHEMA_VERSION`] goes
//! up by one whenever a field changes meaning or goes away; adding a field
//! does not change it.

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Duration;
use xsafe_grade::{Case, CaseOutcome, Grade, Limits, Manifest, Status, StepName};

/// The version of the report's JSON schema. Version 2: case statuses are
/// `passed`, `failed`, `not-run` and `stopped` (the compiler's errors are
/// read as data, so there is no snapshot to mismatch); the report names its
/// toolchain and isolation; ignored entries can be links, special files,
/// unsafe names or oversized files.
pub const SCHEMA_VERSION: u32 = 2;

/// What the grader found about one submission.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// The compiler that graded (`rustc --version`).
    pub toolchain: String,
    /// How the submission's code was isolated while it ran: `bubblewrap`,
    /// `pid-namespace` or `none`.
    pub isolation: String,
    /// What that isolation does not protect, when it is not `bubblewrap`.
    pub isolation_caveat: Option<String>,
    /// Whether the cases marked `miri` ran under Miri: `Miri (VERSION)`,
    /// `no Miri: WHY`, or `Miri not asked` (`--no-miri`, or no such case).
    #[serde(default)]
    pub miri: String,
    /// The seed every behaviour case drew its inputs from (hexadecimal):
    /// `--seed` grades again with the same inputs.
    pub seed: String,
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

/// Where the grade ran: the compiler and the isolation.
#[derive(Debug, Clone)]
pub struct Setting {
    /// `rustc --version`.
    pub toolchain: String,
    /// How submissions' code is isolated.
    pub isolation: xsafe_grade::Isolation,
    /// Miri, as the report says it (see [`Report::miri`]).
    pub miri: String,
    /// The seed of the behaviour cases' inputs.
    pub seed: u64,
}

/// The limits, in seconds and bytes.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReportLimits {
    /// Time allowed for each build (and each compile-fail batch).
    pub build_seconds: f64,
    /// Time allowed for each behaviour case.
    pub case_seconds: f64,
    /// Bytes of output kept per stream before a child is stopped.
    pub output_bytes: usize,
    /// Address space each process of a build or a run may take, in bytes.
    pub memory_bytes: u64,
}

impl From<Limits> for ReportLimits {
    fn from(limits: Limits) -> Self {
        ReportLimits {
            build_seconds: limits.build_time.as_secs_f64(),
            case_seconds: limits.case_time.as_secs_f64(),
            output_bytes: limits.output_bytes,
            memory_bytes: limits.memory_bytes,
        }
    }
}

/// Whether an exercise could be graded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ExerciseStatus {
    /// Its cases ran (whatever their outcomes).
    Graded,
    /// The submission has no such exercise: every case scores 0.
    Missing,
    /// The grader could not grade it (the reason says why): every case
    /// scores 0.
    Error,
    /// The submission's exercise is past what the grader takes on (too
    /// many files, too many bytes; the reason says which): every case
    /// scores 0.
    Refused,
}

/// One exercise's grade.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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
    /// When the crate does not compile: the compiler's errors (trimmed).
    /// Every case is then `not-run`. Text the submission controls.
    #[serde(default)]
    pub crate_errors: Option<String>,
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
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct StepReport {
    /// `definition`, `enforcement` or `consumption`.
    pub name: String,
    /// Points earned.
    pub points: u32,
    /// Points available.
    pub max_points: u32,
}

/// How a case came out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum CaseStatus {
    /// It passed and earned its points.
    Passed,
    /// Its check said no: the judge refused a behaviour case's observation,
    /// a compile-fail case compiled or was rejected for another reason, or
    /// the crate makes public what the exercise does not have.
    Failed,
    /// It could not run: the code does not compile, or the exercise is
    /// missing.
    NotRun,
    /// A limit stopped it (time, output, memory), or it crashed.
    Stopped,
}

impl CaseStatus {
    /// The one word for this status, the same on every surface: `passed`,
    /// `failed`, `not run` or `stopped`.
    pub fn word(self) -> &'static str {
        match self {
            CaseStatus::Passed => "passed",
            CaseStatus::Failed => "failed",
            CaseStatus::NotRun => "not run",
            CaseStatus::Stopped => "stopped",
        }
    }

    /// The sentence that introduces a case's reason, for a reader who has
    /// not seen the status words: `It failed`, `It could not run`, ...
    pub fn sentence(self) -> &'static str {
        match self {
            CaseStatus::Passed => "It passed",
            CaseStatus::Failed => "It failed",
            CaseStatus::NotRun => "It could not run",
            CaseStatus::Stopped => "It was stopped",
        }
    }
}

impl From<&Status> for CaseStatus {
    fn from(status: &Status) -> Self {
        match status {
            Status::Passed => CaseStatus::Passed,
            Status::Failed(_) => CaseStatus::Failed,
            Status::NotRun(_) => CaseStatus::NotRun,
            Status::Stopped(_) => CaseStatus::Stopped,
        }
    }
}

/// One case's grade.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CaseReport {
    /// `STEP/CASE`, such as `enforcement/no_node_literal`.
    pub name: String,
    /// Its step.
    pub step: String,
    /// `pass` (a behaviour case), `compile-fail` or `surface`.
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
    /// The compiler's errors, or what the submission's code printed, for a
    /// case that did not pass (trimmed). Text the submission controls:
    /// shown, never used to decide anything.
    pub details: String,
}

/// How an ignored file differs from the pristine course.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Change {
    /// The file is not in the pristine course.
    Added,
    /// The file's content differs.
    Modified,
    /// The pristine file is not in the submission.
    Deleted,
    /// A symbolic link (or a git submodule), which the grader never follows.
    Symlink,
    /// Not a regular file or folder (a pipe, a socket, a device).
    NotAFile,
    /// A name that is not UTF-8, holds control characters or a
    /// backslash (which the compiler's dep-info cannot carry).
    UnsafeName,
    /// A file larger than the grader reads.
    TooLarge,
}

impl From<xsafe_sandbox::submission::Change> for Change {
    fn from(change: xsafe_sandbox::submission::Change) -> Self {
        use xsafe_sandbox::submission::Change as C;
        match change {
            C::Added => Change::Added,
            C::Modified => Change::Modified,
            C::Deleted => Change::Deleted,
            C::Symlink => Change::Symlink,
            C::NotAFile => Change::NotAFile,
            C::UnsafeName => Change::UnsafeName,
            C::TooLarge => Change::TooLarge,
        }
    }
}

impl From<xsafe_sandbox::submission::Ignored> for Ignored {
    fn from(ignored: xsafe_sandbox::submission::Ignored) -> Self {
        Ignored {
            path: ignored.path,
            change: ignored.change.into(),
        }
    }
}

/// A file the grader ignored.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Ignored {
    /// The path, relative to the exercise (or to the submission's
    /// `exercises/` folder for files outside any exercise), with control
    /// characters written as `\u{..}` escapes.
    pub path: String,
    /// How it differs.
    pub change: Change,
}

impl CaseReport {
    /// What kind of case it is, in words: `behaviour case`, `compile-fail
    /// case`, `public surface case` or `release build case`.
    pub fn kind(&self) -> &'static str {
        match self.expect.as_str() {
            "compile-fail" => "compile-fail case",
            "surface" => "public surface case",
            "no-panic" => "release build case",
            _ => "behaviour case",
        }
    }
}

/// Lines of details kept per case: enough to see the first errors.
pub const DETAIL_LINES: usize = 60;

/// The first `DETAIL_LINES` lines of `text`.
fn trimmed(text: &str) -> String {
    text.lines()
        .take(DETAIL_LINES)
        .collect::<Vec<_>>()
        .join("\n")
}

impl ExerciseReport {
    /// The report of an exercise that was graded.
    pub fn graded(
        grade: &Grade,
        ignored: Vec<Ignored>,
        reason: Option<String>,
        took: Duration,
    ) -> Self {
        let reason = reason.or_else(|| {
            grade
                .crate_errors
                .as_ref()
                .map(|_| "the crate does not compile: every case is not run".to_owned())
        });
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
            crate_errors: grade.crate_errors.as_deref().map(trimmed),
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
                let outcome = CaseOutcome::new(Status::NotRun(reason.clone()), String::new());
                case_report(manifest, case, &outcome)
            })
            .collect();
        ExerciseReport {
            name: manifest.exercise.clone(),
            title: manifest.title.clone(),
            status,
            reason: Some(reason),
            crate_errors: None,
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

    /// The first case that did not pass, in manifest order (steps in
    /// order): the one to work on. `None` when every case passed, and
    /// when the crate does not compile (then no case is to blame).
    pub fn first_failing(&self) -> Option<&CaseReport> {
        if self.crate_errors.is_some() {
            return None;
        }
        self.failing().next()
    }

    /// Whether the exercise was graded and every case passed.
    pub fn is_complete(&self) -> bool {
        self.status == ExerciseStatus::Graded
            && self.points == self.max_points
            && self.failing().next().is_none()
    }

    /// When the crate does not compile: its first error (the compiler's
    /// rendering, from `error` to the next error or warning), and how many
    /// errors there are in all.
    pub fn first_crate_error(&self) -> Option<(String, usize)> {
        self.crate_errors.as_deref().map(first_error)
    }

    /// Whether the crate compiled (an exercise not graded did not).
    pub fn compiles(&self) -> bool {
        self.status == ExerciseStatus::Graded && self.crate_errors.is_none()
    }
}

fn case_report(manifest: &Manifest, case: &Case, outcome: &CaseOutcome) -> CaseReport {
    let status = CaseStatus::from(&outcome.status);
    let passed = status == CaseStatus::Passed;
    CaseReport {
        name: case.name(),
        step: case.step.to_string(),
        expect: case.expect.as_str().to_owned(),
        proves: case.proves(manifest),
        status,
        points: if passed { case.points } else { 0 },
        max_points: case.points,
        reason: outcome.status.reason().map(str::to_owned),
        details: trimmed(&outcome.details),
    }
}

impl Report {
    /// A report over `exercises`, totalled.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        submission: &Path,
        revision: Option<String>,
        course: &Path,
        limits: Limits,
        setting: &Setting,
        ignored: Vec<Ignored>,
        exercises: Vec<ExerciseReport>,
        took: Duration,
    ) -> Report {
        Report {
            schema: "xsafe-grade-report".to_owned(),
            version: SCHEMA_VERSION,
            grader_version: env!("CARGO_PKG_VERSION").to_owned(),
            submission: xsafe_sandbox::submission::display(submission),
            revision: revision.map(|revision| xsafe_sandbox::submission::escape(&revision)),
            course: course.display().to_string(),
            limits: limits.into(),
            toolchain: setting.toolchain.clone(),
            isolation: setting.isolation.name().to_owned(),
            // What this machine could not bound: the isolation's caveat,
            // and runs bounded per process where no cgroup could be made.
            isolation_caveat: {
                let cgroups = match xsafe_grade::cgroup::availability() {
                    xsafe_grade::cgroup::Availability::Unavailable(_) => {
                        Some(xsafe_grade::cgroup::availability().describe())
                    }
                    _ => None,
                };
                match (setting.isolation.caveat(), cgroups) {
                    (Some(caveat), Some(cgroups)) => Some(format!("{caveat}; {cgroups}")),
                    (Some(caveat), None) => Some(caveat.to_owned()),
                    (None, cgroups) => cgroups,
                }
            },
            miri: setting.miri.clone(),
            seed: format!("{:#018x}", setting.seed),
            points: exercises.iter().map(|exercise| exercise.points).sum(),
            max_points: exercises.iter().map(|exercise| exercise.max_points).sum(),
            seconds: took.as_secs_f64(),
            ignored,
            exercises,
        }
    }

    /// The JSON schema of the report, as checked in.
    #[cfg(feature = "schema")]
    pub fn json_schema() -> String {
        let schema = schemars::schema_for!(Report);
        serde_json::to_string_pretty(&schema).unwrap_or_default() + "\n"
    }
}

/// The first error of a compiler's rendered diagnostics (from its `error`
/// line to the next line that starts another error or a warning, blank
/// lines at the end left out), and how many errors the text holds. Text
/// with no `error` line is returned whole, as one error.
pub fn first_error(rendered: &str) -> (String, usize) {
    let starts_error = |line: &str| line.starts_with("error");
    let count = rendered
        .lines()
        .filter(|line| starts_error(line) && !line.starts_with("error: aborting"))
        .count();
    let mut block: Vec<&str> = Vec::new();
    for line in rendered.lines() {
        if block.is_empty() {
            if starts_error(line) {
                block.push(line);
            }
            continue;
        }
        if starts_error(line) || line.starts_with("warning") {
            break;
        }
        block.push(line);
    }
    while block.last().is_some_and(|line| line.trim().is_empty()) {
        block.pop();
    }
    if block.is_empty() {
        return (rendered.trim_end().to_owned(), count.max(1));
    }
    (block.join("\n"), count.max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first error ends where the next one starts; the count leaves
    /// out rustc's closing "aborting" line.
    #[test]
    fn first_error_is_one_block() {
        let rendered = "error[E0425]: cannot find value `x`\n --> src/lib.rs:1:1\n  |\n\nerror: expected `;`\n --> src/lib.rs:2:1\n\nerror: aborting due to 2 previous errors\n";
        let (first, count) = first_error(rendered);
        assert_eq!(
            first,
            "error[E0425]: cannot find value `x`\n --> src/lib.rs:1:1\n  |"
        );
        assert_eq!(count, 2);
        assert_eq!(first_error("cargo refused it").0, "cargo refused it");
    }
}
