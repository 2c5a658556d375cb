//! Reading the test reports back into one outcome per case.
//!
//! Compile-fail cases: trybuild writes one line per case to stderr, `test PATH ... RESULT` (with
//! `[should pass]` or `[should fail to compile]` before the dots when a batch
//! mixes both), followed, for a failure, by the details up to the next case.
//! `PATH` is the case's path as the harness passed it: relative to the crate.
//!
//! Behaviour cases: libtest writes `test STEP::CASE::TEST ... ok` (or
//! `FAILED`) to stdout for each test, and a `---- NAME stdout ----` section
//! with the output of each failing one.

use std::path::{Path, PathBuf};

/// How one case came out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// trybuild reported `ok`.
    Passed,
    /// trybuild reported `mismatch`: the case failed to compile, but not with
    /// the diagnostics it expects (so for another reason than the one it
    /// targets).
    WrongDiagnostics,
    /// A compile-fail case compiled (trybuild reported `error`), or a test of
    /// a behaviour case failed.
    Failed,
    /// trybuild created a `wip` snapshot: the case has no `.stderr` yet.
    NoSnapshot,
    /// trybuild never reported on the case; the reason says why.
    NotRun(String),
    /// A limit stopped the case, or its process crashed: it ran past its
    /// time limit, printed more than the output cap, overflowed its stack.
    /// The reason says which.
    Stopped(String),
}

impl Status {
    /// Whether the case earns its points.
    pub fn is_pass(&self) -> bool {
        *self == Status::Passed
    }
}

/// The outcome of one case, with what trybuild printed about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseOutcome {
    /// The case's path: as trybuild printed it for a compile-fail case,
    /// relative to `grading/cases` for a behaviour case.
    pub path: PathBuf,
    /// How it came out.
    pub status: Status,
    /// What went wrong, for a failing case: trybuild's details (expected and
    /// actual diagnostics) or the failing tests' output; empty when it passed.
    pub details: String,
}

/// Reads every `test PATH ... RESULT` block of a trybuild report.
pub fn parse_trybuild_report(report: &str) -> Vec<CaseOutcome> {
    let mut outcomes: Vec<CaseOutcome> = Vec::new();
    let mut details: Option<&mut String> = None;
    for line in report.lines() {
        if let Some((path, result)) = case_line(line) {
            let status = match result.split_whitespace().next() {
                Some("ok") => Status::Passed,
                Some("mismatch") => Status::WrongDiagnostics,
                Some("wip") => Status::NoSnapshot,
                _ => Status::Failed,
            };
            outcomes.push(CaseOutcome {
                path: path.to_path_buf(),
                status,
                details: String::new(),
            });
            details = outcomes.last_mut().map(|outcome| &mut outcome.details);
        } else if line.starts_with("test ") || line.starts_with("running ") {
            // A line of libtest's own report ends the last case's details.
            details = None;
        } else if let Some(details) = details.as_deref_mut() {
            details.push_str(line);
            details.push('\n');
        }
    }
    for outcome in &mut outcomes {
        if outcome.status.is_pass() {
            outcome.details.clear();
        } else {
            outcome.details = outcome.details.trim().to_owned();
        }
    }
    outcomes
}

/// Splits `test PATH [should ...] ... RESULT` into `PATH` and `RESULT`.
/// Lines whose `PATH` is not a `.rs` path (libtest's own lines, such as
/// `test step_1_definition ... ok`) are not case lines.
fn case_line(line: &str) -> Option<(&Path, &str)> {
    let rest = line.strip_prefix("test ")?;
    let (head, result) = rest.split_once(" ... ")?;
    let path = head
        .strip_suffix(" [should pass]")
        .or_else(|| head.strip_suffix(" [should fail to compile]"))
        .unwrap_or(head);
    let path = Path::new(path);
    path.extension()
        .is_some_and(|ext| ext == "rs")
        .then_some((path, result.trim()))
}

/// One test of libtest's report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestResult {
    /// The test's full name, such as `enforcement::insert_keeps_order::works`.
    pub name: String,
    /// Whether it passed.
    pub passed: bool,
    /// Its captured output, for a failing test.
    pub output: String,
}

/// Reads libtest's report: every `test NAME ... RESULT` line, and the
/// captured output of the failing tests.
pub fn parse_libtest_report(report: &str) -> Vec<TestResult> {
    let mut results: Vec<TestResult> = Vec::new();
    let mut section: Option<usize> = None;
    for line in report.lines() {
        if let Some((name, result)) = line
            .strip_prefix("test ")
            .and_then(|rest| rest.split_once(" ... "))
            .filter(|(name, _)| !name.ends_with(".rs") && !name.contains(' '))
        {
            results.push(TestResult {
                name: name.to_owned(),
                passed: result.trim() == "ok",
                output: String::new(),
            });
            continue;
        }
        if let Some(name) = line
            .strip_prefix("---- ")
            .and_then(|rest| rest.strip_suffix(" stdout ----"))
        {
            section = results.iter().position(|result| result.name == name);
        } else if line == "failures:" || line.starts_with("test result: ") {
            section = None;
        } else if let Some(index) = section {
            results[index].output.push_str(line);
            results[index].output.push('\n');
        }
    }
    for result in &mut results {
        result.output = result.output.trim().to_owned();
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    const REPORT: &str = "\
running 1 test


test grading/cases/a.rs ... ok
test grading/cases/b.rs ... mismatch

EXPECTED:
error[E0451]: field `key` of struct `Node` is private

ACTUAL OUTPUT:
(nothing)

test grading/cases/c.rs [should pass] ... error
Expected test case to fail to compile, but it succeeded.
test step_2_enforcement ... FAILED
";

    /// Each result word maps to its status, and details go to the case they
    /// follow, up to the next line of any report.
    #[test]
    fn reads_each_case_and_its_details() {
        let outcomes = parse_trybuild_report(REPORT);
        let statuses: Vec<_> = outcomes.iter().map(|o| o.status.clone()).collect();
        assert_eq!(
            statuses,
            [Status::Passed, Status::WrongDiagnostics, Status::Failed]
        );
        assert_eq!(outcomes[2].path, Path::new("grading/cases/c.rs"));
        assert!(outcomes[1].details.starts_with("EXPECTED:"));
        assert!(outcomes[1].details.ends_with("(nothing)"));
        assert_eq!(
            outcomes[2].details,
            "Expected test case to fail to compile, but it succeeded."
        );
    }

    /// libtest's own `test NAME ... ok` lines are not cases.
    #[test]
    fn ignores_libtest_lines() {
        assert!(parse_trybuild_report("test step_1_definition ... ok\n").is_empty());
    }

    const LIBTEST: &str = "\
running 2 tests
test enforcement::insert_keeps_order::keeps_order ... ok
test consumption::range::bounds ... FAILED

failures:

---- consumption::range::bounds stdout ----

thread 'consumption::range::bounds' panicked at cases/range.rs:3:5:
range(4..10) is wrong

failures:
    consumption::range::bounds

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out
";

    /// Results and the failing test's captured output are read; the list of
    /// failures at the end is not output.
    #[test]
    fn reads_libtest_results() {
        let results = parse_libtest_report(LIBTEST);
        assert_eq!(results.len(), 2);
        assert!(results[0].passed);
        assert!(!results[1].passed);
        assert_eq!(results[1].name, "consumption::range::bounds");
        assert!(
            results[1]
                .output
                .starts_with("thread 'consumption::range::bounds' panicked")
        );
        assert!(results[1].output.ends_with("range(4..10) is wrong"));
        assert!(results[0].output.is_empty());
    }
}
