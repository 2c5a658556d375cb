//! GitHub Classroom's runner results: what the grader hands to
//! `classroom-resources/autograding-grading-reporter`, so that Classroom
//! shows the grader's partial credit instead of all-or-nothing.
//!
//! The reporter reads, for each id in its `runners` input, the environment
//! variable `<ID in upper case>_RESULTS`: base64 of a JSON object
//! `{version: 1, status, max_score, tests: [{name, status, score, ...}]}`.
//! Classroom's total is the sum of every test's `score` over the sum of
//! every runner's `max_score` (its `notify-classroom.js`).
//!
//! **Invariant**: for every exercise, the runner's `max_score` is the
//! exercise's points, and its tests (one per case) score exactly the
//! points the grader gave; an exercise that could not be graded still has
//! a result, worth 0 of its points, with the reason. Text a submission
//! controls is escaped as for a log ([`render::for_terminal`]), because the
//! reporter prints it to one.

use crate::model::{CaseStatus, ExerciseReport, ExerciseStatus, Report};
use crate::render;
use base64::Engine as _;
use serde::Serialize;

/// The version of the runner-result format this module writes.
pub const FORMAT_VERSION: u32 = 1;

/// One exercise's result, as the reporter reads it.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RunnerResult {
    /// Always [`FORMAT_VERSION`].
    pub version: u32,
    /// `pass` (full marks), `fail` (points lost) or `error` (not graded).
    pub status: &'static str,
    /// The exercise's points.
    pub max_score: u32,
    /// One test per case.
    pub tests: Vec<RunnerTest>,
}

/// One case, as a reporter's test.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct RunnerTest {
    /// `STEP/CASE`.
    pub name: String,
    /// `pass`, `fail` or `error`.
    pub status: &'static str,
    /// Points earned.
    pub score: u32,
    /// Points the case is worth.
    pub max_score: u32,
    /// Why it did not pass (one line), or what it proves when it did.
    pub message: String,
}

/// The runner id of an exercise: its name with every character other than
/// an ASCII letter or digit written as `_` (`ordered-tree` becomes
/// `ordered_tree`): a step id GitHub accepts and an environment variable
/// name every shell can set.
pub fn runner_id(exercise: &str) -> String {
    exercise
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The result of one exercise.
pub fn runner_result(exercise: &ExerciseReport) -> RunnerResult {
    let tests: Vec<RunnerTest> = exercise
        .cases
        .iter()
        .map(|case| {
            let status = match case.status {
                CaseStatus::Passed => "pass",
                CaseStatus::Failed => "fail",
                CaseStatus::NotRun | CaseStatus::Stopped => "error",
            };
            let message = match &case.reason {
                Some(reason) => format!("{}: {reason}", case.status.sentence()),
                None => case.proves.clone(),
            };
            RunnerTest {
                name: render::for_terminal(&case.name, false),
                status,
                score: case.points,
                max_score: case.max_points,
                message: render::for_terminal(&message, false),
            }
        })
        .collect();
    let status = if exercise.status != ExerciseStatus::Graded {
        "error"
    } else if exercise.points < exercise.max_points {
        "fail"
    } else {
        "pass"
    };
    let mut result = RunnerResult {
        version: FORMAT_VERSION,
        status,
        max_score: exercise.max_points,
        tests,
    };
    if result.tests.is_empty() {
        let reason = exercise.reason.as_deref().unwrap_or("not graded");
        result.tests.push(error_test(exercise.max_points, reason));
    }
    result
}

/// The result of an exercise the grader could not grade at all (it stopped
/// before grading, with `reason`): 0 of `max_score`.
pub fn could_not_grade(max_score: u32, reason: &str) -> RunnerResult {
    RunnerResult {
        version: FORMAT_VERSION,
        status: "error",
        max_score,
        tests: vec![error_test(max_score, reason)],
    }
}

fn error_test(max_score: u32, reason: &str) -> RunnerTest {
    RunnerTest {
        name: "grading".to_owned(),
        status: "error",
        score: 0,
        max_score,
        message: render::for_terminal(&format!("The grader could not grade: {reason}"), false),
    }
}

/// `result` as the reporter's variable holds it: base64 of its JSON.
pub fn encoded(result: &RunnerResult) -> String {
    // Serialising a struct of strings and numbers cannot fail.
    let json = serde_json::to_string(result).unwrap_or_default();
    base64::engine::general_purpose::STANDARD.encode(json)
}

/// The `$GITHUB_OUTPUT` line of one exercise's result: `RUNNER_ID=BASE64`
/// (base64 holds no newline, so one line is the whole value).
pub fn output_line(exercise: &str, result: &RunnerResult) -> String {
    format!("{}={}\n", runner_id(exercise), encoded(result))
}

/// Lines for `$GITHUB_OUTPUT`: one per exercise of `report`.
pub fn github_outputs(report: &Report) -> String {
    report
        .exercises
        .iter()
        .map(|exercise| output_line(&exercise.name, &runner_result(exercise)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runner_ids_are_letters_digits_and_underscores() {
        assert_eq!(runner_id("ordered-tree"), "ordered_tree");
        assert_eq!(runner_id("lock-order-fine-print"), "lock_order_fine_print");
    }

    #[test]
    fn an_ungraded_exercise_is_worth_zero_of_its_points_with_a_reason() {
        let result = could_not_grade(27, "no course\u{1b}[2J");
        assert_eq!(result.max_score, 27);
        assert_eq!(result.status, "error");
        assert_eq!(result.tests.iter().map(|t| t.score).sum::<u32>(), 0);
        assert!(result.tests[0].message.contains("no course"));
        assert!(!result.tests[0].message.contains('\u{1b}'));
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(encoded(&result))
            .expect("base64");
        let value: serde_json::Value = serde_json::from_slice(&decoded).expect("JSON");
        assert_eq!(value["version"], 1);
        assert_eq!(value["max_score"], 27);
    }
}
