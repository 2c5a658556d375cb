//! Writing a [`Report`] for people and for CI systems: plain text for a
//! terminal or a log, Markdown for a CI step summary, JUnit XML (written by
//! `quick-junit`) for test-report viewers, and JSON.

use crate::report::{CaseStatus, Change, ExerciseReport, ExerciseStatus, Ignored, Report};
use anstyle::{AnsiColor, Style};
use std::fmt::Write as _;
use std::time::Duration;

const GOOD: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)));
const BAD: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));
const WARN: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Yellow)));
const BOLD: Style = Style::new().bold();
const DIM: Style = Style::new().dimmed();

fn change_word(change: Change) -> &'static str {
    match change {
        Change::Added => "added",
        Change::Modified => "modified",
        Change::Deleted => "deleted",
        Change::Symlink => "symbolic link",
    }
}

fn status_word(status: CaseStatus) -> &'static str {
    match status {
        CaseStatus::Passed => "passed",
        CaseStatus::Failed => "failed",
        CaseStatus::WrongDiagnostics => "wrong errors",
        CaseStatus::NoSnapshot => "no snapshot",
        CaseStatus::NotRun => "not run",
        CaseStatus::Stopped => "stopped",
    }
}

/// One exercise's result line, cargo style: `   ordered-tree 22/22 points`.
pub fn exercise_line(exercise: &ExerciseReport) -> String {
    let style = if exercise.points == exercise.max_points {
        GOOD
    } else {
        BAD
    };
    let steps = exercise
        .steps
        .iter()
        .map(|step| format!("{} {}/{}", step.name, step.points, step.max_points))
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{style}{:>12}{style:#} {:<22} {:>3}/{:<3} points  ({steps}) in {:.1}s",
        "Graded", exercise.name, exercise.points, exercise.max_points, exercise.seconds
    )
}

fn ignored_line(out: &mut String, folder: &str, ignored: &Ignored, why: &str) {
    let _ = writeln!(
        out,
        "{WARN}{:>12}{WARN:#} {folder}{} ({}): {why}",
        "ignored",
        ignored.path,
        change_word(ignored.change)
    );
}

/// The full text report: a line per exercise, then what did not pass and
/// what was ignored, then the total.
pub fn human(report: &Report) -> String {
    let mut out = String::new();
    for exercise in &report.exercises {
        let _ = writeln!(out, "{}", exercise_line(exercise));
        if exercise.status != ExerciseStatus::Graded {
            let _ = writeln!(
                out,
                "{BAD}{:>12}{BAD:#} {}",
                "not graded",
                exercise.reason.as_deref().unwrap_or("")
            );
        } else if let Some(reason) = &exercise.reason {
            let _ = writeln!(out, "{WARN}{:>12}{WARN:#} {reason}", "warning");
        }
        if exercise.status == ExerciseStatus::Graded {
            for case in exercise.failing() {
                let _ = writeln!(
                    out,
                    "{BAD}{:>12}{BAD:#} {BOLD}{}{BOLD:#} (0/{} pts): {}",
                    status_word(case.status),
                    case.name,
                    case.max_points,
                    case.reason.as_deref().unwrap_or("")
                );
                let _ = writeln!(out, "{:>12} {DIM}{}{DIM:#}", "", case.proves);
            }
        }
        for ignored in &exercise.ignored {
            ignored_line(
                &mut out,
                &format!("{}/", exercise.name),
                ignored,
                "only learner files are graded",
            );
        }
    }
    for ignored in &report.ignored {
        ignored_line(
            &mut out,
            "exercises/",
            ignored,
            "not an exercise of this course",
        );
    }
    let style = if report.points == report.max_points {
        GOOD
    } else {
        BOLD
    };
    let _ = writeln!(
        out,
        "{style}{:>12}{style:#} {}/{} points over {} exercises in {:.1}s",
        "Finished",
        report.points,
        report.max_points,
        report.exercises.len(),
        report.seconds
    );
    out
}

fn escape_cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A Markdown summary for a CI step summary: a table of exercises, then
/// the cases that lost points and what was ignored, in collapsed sections.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "## X-safe Rust grade: {} / {} points\n",
        report.points, report.max_points
    );
    let _ = writeln!(
        out,
        "| Exercise | Points | Definition | Enforcement | Consumption |"
    );
    let _ = writeln!(out, "|---|---:|---:|---:|---:|");
    for exercise in &report.exercises {
        let mark = if exercise.points == exercise.max_points {
            "✅"
        } else {
            "❌"
        };
        let mut row = format!(
            "| {mark} {} | {}/{} |",
            escape_cell(&exercise.title),
            exercise.points,
            exercise.max_points
        );
        for step in &exercise.steps {
            let _ = write!(row, " {}/{} |", step.points, step.max_points);
        }
        let _ = writeln!(out, "{row}");
    }
    for exercise in &report.exercises {
        let failing: Vec<_> = exercise.failing().collect();
        if failing.is_empty() && exercise.ignored.is_empty() && exercise.reason.is_none() {
            continue;
        }
        let _ = writeln!(
            out,
            "\n<details><summary><b>{}</b>: {} case(s) lost points, {} file(s) ignored</summary>\n",
            exercise.name,
            failing.len(),
            exercise.ignored.len()
        );
        if let Some(reason) = &exercise.reason {
            let _ = writeln!(out, "> {}\n", escape_cell(reason));
        }
        if !failing.is_empty() {
            let _ = writeln!(out, "| Case | Points | Outcome | Why |");
            let _ = writeln!(out, "|---|---:|---|---|");
            for case in failing {
                let _ = writeln!(
                    out,
                    "| `{}` | 0/{} | {} | {} |",
                    case.name,
                    case.max_points,
                    status_word(case.status),
                    escape_cell(case.reason.as_deref().unwrap_or(""))
                );
            }
        }
        if !exercise.ignored.is_empty() {
            let _ = writeln!(out, "\nIgnored (only learner files are graded):\n");
            for ignored in &exercise.ignored {
                let _ = writeln!(
                    out,
                    "- `{}` ({})",
                    ignored.path,
                    change_word(ignored.change)
                );
            }
        }
        let _ = writeln!(out, "\n</details>");
    }
    let _ = writeln!(
        out,
        "\n<sub>xsafe-grader {}, report schema v{}, {:.1} s</sub>",
        report.grader_version, report.version, report.seconds
    );
    out
}

/// A JUnit XML report: one test suite per exercise, one test case per
/// grading case (its class name is the step), failures with their reason
/// and output, and the points as properties.
pub fn junit(report: &Report) -> Result<String, quick_junit::SerializeError> {
    use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};
    let mut junit = quick_junit::Report::new("xsafe-grade");
    junit.set_time(Duration::from_secs_f64(report.seconds.max(0.0)));
    for exercise in &report.exercises {
        let mut suite = TestSuite::new(exercise.name.as_str());
        suite.set_time(Duration::from_secs_f64(exercise.seconds.max(0.0)));
        suite.add_property(Property::new("points", exercise.points.to_string()));
        suite.add_property(Property::new("max_points", exercise.max_points.to_string()));
        for case in &exercise.cases {
            let status = match case.status {
                CaseStatus::Passed => TestCaseStatus::success(),
                status => {
                    // A case that could not run or was stopped is an error,
                    // one whose check said no is a failure.
                    let kind = match status {
                        CaseStatus::NotRun | CaseStatus::Stopped | CaseStatus::NoSnapshot => {
                            NonSuccessKind::Error
                        }
                        _ => NonSuccessKind::Failure,
                    };
                    let mut status_value = TestCaseStatus::non_success(kind);
                    status_value.set_message(case.reason.clone().unwrap_or_default());
                    status_value.set_type(status_word(status));
                    status_value.set_description(case.details.as_str());
                    status_value
                }
            };
            let mut test_case = TestCase::new(case.name.as_str(), status);
            test_case.set_classname(format!("{}.{}", exercise.name, case.step));
            test_case.add_property(Property::new("points", case.points.to_string()));
            test_case.add_property(Property::new("max_points", case.max_points.to_string()));
            test_case.add_property(Property::new("proves", case.proves.as_str()));
            suite.add_test_case(test_case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string()
}
