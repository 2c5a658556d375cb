//! Writing a [`Report`] for people and for CI systems: plain text for a
//! terminal or a log, Markdown for a CI step summary, JUnit XML (written by
//! `quick-junit`) for test-report viewers, and JSON ([`json`]). The
//! learner's tool draws its screen from the same [`ExerciseReport`], with
//! the same status words ([`CaseStatus::word`]) and the same escaping
//! ([`for_terminal`]).
//!
//! **Invariant**: every piece of text a submission controls (file names,
//! the compiler's errors about its code, what its code printed, a judge's
//! message quoting observed values) passes through this format's escaping
//! before it is written: a submission cannot start a heading, a table row
//! or a line of its own, drive a terminal, or break the XML. The text the
//! course and the grader write (case names, what a case proves, points) is
//! escaped the same way, which costs nothing and keeps one rule.

use crate::model::{CaseStatus, Change, ExerciseReport, ExerciseStatus, Ignored, Report};
use anstyle::{AnsiColor, Style};
use std::fmt::Write as _;

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

/// Text for a terminal or a log: control characters (escape sequences,
/// carriage returns, ...) written as `\u{..}`; with `lines`, newlines and
/// tabs are kept, else they are escaped too.
pub fn for_terminal(text: &str, lines: bool) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' if lines => c.to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

/// Text for Markdown (and the HTML it may hold), inline: every character
/// Markdown or HTML gives a meaning to is written as an HTML entity, and
/// line breaks become spaces, so the text stays one inline run of plain
/// characters wherever it is put (a table cell, a list item, a heading).
pub fn for_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '&' | '<' | '>' | '|' | '`' | '*' | '_' | '[' | ']' | '(' | ')' | '#' | '\\' | '~'
            | '!' | '"' | '\'' | '{' | '}' | '+' | '-' | '=' | ':' | '$' | '^' => {
                let _ = write!(out, "&#{};", u32::from(c));
            }
            c if c.is_control() => {
                let _ = write!(out, "{}", c.escape_unicode());
            }
            c => out.push(c),
        }
    }
    out
}

/// Text for XML: `quick-junit` escapes markup, but XML 1.0 cannot hold
/// most control characters at all, so they are written as `\u{..}`.
pub fn for_xml(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c.to_string(),
            c if c.is_control() => c.escape_unicode().to_string(),
            c => c.to_string(),
        })
        .collect()
}

fn change_word(change: Change) -> &'static str {
    match change {
        Change::Added => "added",
        Change::Modified => "modified",
        Change::Deleted => "deleted",
        Change::Symlink => "symbolic link, not followed",
        Change::NotAFile => "not a regular file",
        Change::UnsafeName => "name with control characters",
        Change::TooLarge => "too large",
    }
}

fn status_word(status: CaseStatus) -> &'static str {
    status.word()
}

/// The JSON report: the model as is (its schema is the checked-in
/// `ci/grader/report.schema.json`). serde_json escapes every string.
pub fn json(report: &Report) -> Result<String, serde_json::Error> {
    serde_json::to_string_pretty(report)
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
        "Graded",
        for_terminal(&exercise.name, false),
        exercise.points,
        exercise.max_points,
        exercise.seconds
    )
}

fn ignored_line(out: &mut String, folder: &str, ignored: &Ignored, why: &str) {
    let _ = writeln!(
        out,
        "{WARN}{:>12}{WARN:#} {}{} ({}): {why}",
        "ignored",
        for_terminal(folder, false),
        for_terminal(&ignored.path, false),
        change_word(ignored.change)
    );
}

/// The full text report: where it ran, a line per exercise, what did not
/// pass and what was ignored, then the total.
pub fn human(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{DIM}{:>12} {}, isolation: {}, {}, seed {}{DIM:#}",
        "",
        for_terminal(&report.toolchain, false),
        report.isolation,
        for_terminal(&report.miri, false),
        report.seed
    );
    if let Some(caveat) = &report.isolation_caveat {
        let _ = writeln!(out, "{WARN}{:>12}{WARN:#} {caveat}", "warning");
    }
    for exercise in &report.exercises {
        let _ = writeln!(out, "{}", exercise_line(exercise));
        if exercise.status != ExerciseStatus::Graded {
            let _ = writeln!(
                out,
                "{BAD}{:>12}{BAD:#} {}",
                "not graded",
                for_terminal(exercise.reason.as_deref().unwrap_or(""), false)
            );
        } else if let Some(reason) = &exercise.reason {
            let _ = writeln!(
                out,
                "{WARN}{:>12}{WARN:#} {}",
                "warning",
                for_terminal(reason, false)
            );
        }
        if let Some((first, count)) = exercise.first_crate_error() {
            let _ = writeln!(
                out,
                "{BAD}{:>12}{BAD:#} the crate does not compile ({count} error(s)); the first:",
                "not compiled"
            );
            for line in first.lines() {
                let _ = writeln!(out, "{:>12} {DIM}{}{DIM:#}", "", for_terminal(line, false));
            }
        }
        if exercise.status == ExerciseStatus::Graded {
            for case in exercise.failing() {
                let _ = writeln!(
                    out,
                    "{BAD}{:>12}{BAD:#} {BOLD}{}{BOLD:#} (0/{} pts): {}",
                    status_word(case.status),
                    for_terminal(&case.name, false),
                    case.max_points,
                    for_terminal(case.reason.as_deref().unwrap_or(""), false)
                );
                let _ = writeln!(
                    out,
                    "{:>12} {DIM}{}{DIM:#}",
                    "",
                    for_terminal(&case.proves, false)
                );
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
        "<sub>{}, isolation: {}, {}, seed {}</sub>\n",
        for_markdown(&report.toolchain),
        for_markdown(&report.isolation),
        for_markdown(&report.miri),
        for_markdown(&report.seed)
    );
    if let Some(caveat) = &report.isolation_caveat {
        let _ = writeln!(out, "> **Warning**: {}\n", for_markdown(caveat));
    }
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
            for_markdown(&exercise.title),
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
            for_markdown(&exercise.name),
            failing.len(),
            exercise.ignored.len()
        );
        if let Some(reason) = &exercise.reason {
            let _ = writeln!(out, "> {}\n", for_markdown(reason));
        }
        if let Some((first, count)) = exercise.first_crate_error() {
            let first_line = first.lines().next().unwrap_or("");
            let _ = writeln!(
                out,
                "The crate does not compile ({count} error(s)); the first: <code>{}</code>\n",
                for_markdown(first_line)
            );
        }
        if !failing.is_empty() {
            let _ = writeln!(out, "| Case | Points | Outcome | Why |");
            let _ = writeln!(out, "|---|---:|---|---|");
            for case in failing {
                let _ = writeln!(
                    out,
                    "| <code>{}</code> | 0/{} | {} | {} |",
                    for_markdown(&case.name),
                    case.max_points,
                    status_word(case.status),
                    for_markdown(case.reason.as_deref().unwrap_or(""))
                );
            }
        }
        if !exercise.ignored.is_empty() {
            let _ = writeln!(out, "\nIgnored (only learner files are graded):\n");
            for ignored in &exercise.ignored {
                let _ = writeln!(
                    out,
                    "- <code>{}</code> ({})",
                    for_markdown(&ignored.path),
                    change_word(ignored.change)
                );
            }
        }
        let _ = writeln!(out, "\n</details>");
    }
    if !report.ignored.is_empty() {
        let _ = writeln!(out, "\nIgnored outside the exercises:\n");
        for ignored in &report.ignored {
            let _ = writeln!(
                out,
                "- <code>{}</code> ({})",
                for_markdown(&ignored.path),
                change_word(ignored.change)
            );
        }
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
#[cfg(feature = "junit")]
pub fn junit(report: &Report) -> Result<String, quick_junit::SerializeError> {
    use quick_junit::{NonSuccessKind, Property, TestCase, TestCaseStatus, TestSuite};
    use std::time::Duration;
    let mut junit = quick_junit::Report::new("xsafe-grade");
    junit.set_time(Duration::from_secs_f64(report.seconds.max(0.0)));
    for exercise in &report.exercises {
        let mut suite = TestSuite::new(for_xml(&exercise.name));
        suite.set_time(Duration::from_secs_f64(exercise.seconds.max(0.0)));
        suite.add_property(Property::new("points", exercise.points.to_string()));
        suite.add_property(Property::new("max_points", exercise.max_points.to_string()));
        if let Some(errors) = &exercise.crate_errors {
            suite.set_system_err(for_xml(errors));
        }
        for case in &exercise.cases {
            let status = match case.status {
                CaseStatus::Passed => TestCaseStatus::success(),
                status => {
                    // A case that could not run or was stopped is an error,
                    // one whose check said no is a failure.
                    let kind = match status {
                        CaseStatus::NotRun | CaseStatus::Stopped => NonSuccessKind::Error,
                        _ => NonSuccessKind::Failure,
                    };
                    let mut status_value = TestCaseStatus::non_success(kind);
                    status_value.set_message(for_xml(case.reason.as_deref().unwrap_or("")));
                    status_value.set_type(status_word(status));
                    status_value.set_description(for_xml(&case.details));
                    status_value
                }
            };
            let mut test_case = TestCase::new(for_xml(&case.name), status);
            test_case.set_classname(format!("{}.{}", for_xml(&exercise.name), case.step));
            test_case.add_property(Property::new("points", case.points.to_string()));
            test_case.add_property(Property::new("max_points", case.max_points.to_string()));
            test_case.add_property(Property::new("proves", for_xml(&case.proves)));
            suite.add_test_case(test_case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name made to forge report lines stays one plain line in each
    /// format: no escape sequence, no heading, no table cell, no tag.
    #[test]
    fn hostile_text_stays_text() {
        let hostile = "x\u{1b}[2J\r\n## Finished 112/112 | <b>`*ok*`</b> [link](http://x)";
        let terminal = for_terminal(hostile, false);
        assert!(
            !terminal.contains('\u{1b}') && !terminal.contains('\n') && !terminal.contains('\r')
        );
        let markdown = for_markdown(hostile);
        // What is left once the entities (`&#35;`) are taken out: the
        // entities' own `&`, `#` and `;` are not Markdown.
        let mut outside_entities = String::new();
        let mut rest = markdown.as_str();
        while let Some(at) = rest.find("&#") {
            outside_entities.push_str(&rest[..at]);
            let after = &rest[at + 2..];
            let digits = after.chars().take_while(char::is_ascii_digit).count();
            assert!(
                digits > 0 && after[digits..].starts_with(';'),
                "a bare `&#` in {markdown}"
            );
            rest = &after[digits + 1..];
        }
        outside_entities.push_str(rest);
        for forbidden in ['\n', '#', '|', '<', '>', '`', '*', '[', '(', '\u{1b}'] {
            assert!(
                !outside_entities.contains(forbidden),
                "{forbidden:?} in {markdown}"
            );
        }
        let xml = for_xml(hostile);
        assert!(!xml.contains('\u{1b}') && !xml.contains('\r'));
        assert_eq!(for_terminal("a\n\tb", true), "a\n\tb");
    }

    /// The compiler's errors of a crate that does not compile are text the
    /// submission controls (they quote its code): the text and Markdown
    /// reports show the first one, escaped like the rest.
    #[test]
    fn crate_errors_are_shown_escaped() {
        let exercise = ExerciseReport {
            name: "ordered-tree".to_owned(),
            title: "An ordered tree".to_owned(),
            status: ExerciseStatus::Graded,
            reason: Some("the crate does not compile: every case is not run".to_owned()),
            crate_errors: Some(
                "error: expected `;`\n --> src/lib.rs:1:1\n  | x\u{1b}[2J\r## Finished 99/99\n\nerror: second\n"
                    .to_owned(),
            ),
            points: 0,
            max_points: 1,
            steps: Vec::new(),
            cases: Vec::new(),
            ignored: Vec::new(),
            seconds: 0.0,
        };
        let report = Report {
            schema: "xsafe-grade-report".to_owned(),
            version: crate::model::SCHEMA_VERSION,
            grader_version: "0".to_owned(),
            submission: "s".to_owned(),
            revision: None,
            course: "c".to_owned(),
            limits: crate::model::ReportLimits {
                build_seconds: 1.0,
                case_seconds: 1.0,
                output_bytes: 1,
                memory_bytes: 1,
            },
            toolchain: "rustc".to_owned(),
            isolation: "none".to_owned(),
            isolation_caveat: None,
            miri: "Miri not asked".to_owned(),
            seed: "0x0".to_owned(),
            points: 0,
            max_points: 1,
            seconds: 0.0,
            ignored: Vec::new(),
            exercises: vec![exercise],
        };
        let text = human(&report);
        assert!(
            text.contains("the crate does not compile (2 error(s)); the first:"),
            "{text}"
        );
        assert!(text.contains("error: expected `;`"), "{text}");
        assert!(
            !text.contains("error: second"),
            "only the first error:\n{text}"
        );
        assert!(
            !text.contains("\u{1b}[2J") && !text.contains('\r'),
            "{text:?}"
        );
        let markdown = markdown(&report);
        assert!(
            markdown.contains("The crate does not compile (2 error(s))"),
            "{markdown}"
        );
        assert!(
            !markdown.lines().any(|line| line.starts_with("## Finished")),
            "{markdown}"
        );
    }
}
