//! The grader's command line, driven as CI drives it: exit codes, clear
//! errors on bad input, grading a git revision rather than the working
//! tree, and the report files it writes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::{Mutex, MutexGuard, PoisonError};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the course root exists")
}

/// Grades share the sandboxes folder: one at a time.
fn one_at_a_time() -> MutexGuard<'static, ()> {
    static LOCK: Mutex<()> = Mutex::new(());
    LOCK.lock().unwrap_or_else(PoisonError::into_inner)
}

fn grader(args: &[&str]) -> Output {
    let root = root();
    Command::new(env!("CARGO_BIN_EXE_xsafe-grader"))
        .args(args)
        .arg("--course")
        .arg(&root)
        .arg("--work-dir")
        .arg(root.join("target/xsafe/grader-cli"))
        .arg("--target-dir")
        .arg(root.join("target/xsafe/build"))
        .env_remove("XSAFE_COURSE")
        .output()
        .expect("the grader starts")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn copy_dir(from: &Path, to: &Path) {
    xsafe_sandbox::mirror(from, to, &|_| false)
        .map(drop)
        .unwrap_or_else(|err| panic!("cannot copy {}: {err}", from.display()));
}

/// A student's repository with the lock-order solution committed.
fn solved_repository(name: &str) -> PathBuf {
    let root = root();
    let repo = root.join("target/xsafe/grader-cli-repos").join(name);
    let _ = std::fs::remove_dir_all(&repo);
    let exercise = repo.join("exercises/lock-order");
    copy_dir(&root.join("exercises/lock-order"), &exercise);
    std::fs::remove_dir_all(exercise.join("src")).expect("remove starter");
    copy_dir(
        &root.join("solutions/lock-order/src"),
        &exercise.join("src"),
    );
    let git = |args: &[&str]| {
        let status = Command::new("git")
            .args([
                "-c",
                "user.name=Student",
                "-c",
                "user.email=student@example.com",
            ])
            .arg("-C")
            .arg(&repo)
            .args(args)
            .output()
            .expect("git runs");
        assert!(status.status.success(), "git {args:?}: {}", stderr(&status));
    };
    git(&["init", "--quiet"]);
    git(&["add", "."]);
    git(&["commit", "--quiet", "-m", "solved"]);
    repo
}

/// A submission that does not exist is an error of the grader's input
/// (exit 2, with the path), not a grade of 0.
#[test]
fn a_missing_submission_cannot_be_graded() {
    let output = grader(&["/no/such/submission"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("/no/such/submission: not a folder"),
        "{}",
        stderr(&output)
    );
}

/// An exercise name the course does not have is refused, and the message
/// lists the names it does have.
#[test]
fn an_unknown_exercise_is_refused_with_the_known_ones() {
    let output = grader(&[".", "--exercise", "no-such-exercise"]);
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("no exercise `no-such-exercise`"),
        "{message}"
    );
    assert!(message.contains("ordered-tree"), "{message}");
}

/// A course folder that is not a course is refused (exit 2).
#[test]
fn a_folder_that_is_not_a_course_is_refused() {
    let output = Command::new(env!("CARGO_BIN_EXE_xsafe-grader"))
        .args([".", "--course", "/"])
        .output()
        .expect("the grader starts");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot read the course at /"),
        "{}",
        stderr(&output)
    );
}

/// Limits must be positive numbers of seconds.
#[test]
fn a_zero_time_limit_is_refused() {
    let output = grader(&[".", "--case-time-limit", "0"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--case-time-limit must be a positive"),
        "{}",
        stderr(&output)
    );
}

/// `--print-schema` prints exactly the checked-in schema: the documented
/// schema cannot drift from the report the grader writes.
#[test]
fn the_checked_in_schema_is_the_reports_schema() {
    let output = Command::new(env!("CARGO_BIN_EXE_xsafe-grader"))
        .arg("--print-schema")
        .output()
        .expect("the grader starts");
    assert!(output.status.success());
    let checked_in = std::fs::read_to_string(root().join("ci/grader/report.schema.json"))
        .expect("the schema is checked in");
    assert!(
        String::from_utf8_lossy(&output.stdout) == checked_in,
        "ci/grader/report.schema.json is stale: regenerate it with\n  cargo run -p xsafe-grader -- --print-schema > ci/grader/report.schema.json"
    );
}

/// With `--rev`, the committed work is graded, not the working tree (here
/// broken after the commit); without it, the broken tree is graded, and
/// `--require-full-marks` turns the lost points into exit code 1. Every
/// report file is written and readable: the JUnit XML parses back with one
/// test per case, the Markdown has the score, the JSON has the schema's
/// name and version.
#[test]
fn grades_a_revision_and_writes_every_report() {
    let _one = one_at_a_time();
    let repo = solved_repository("revision");
    std::fs::write(
        repo.join("exercises/lock-order/src/bank.rs"),
        "this is not Rust",
    )
    .expect("break the working tree");
    let out = root().join("target/xsafe/grader-cli-reports");
    std::fs::create_dir_all(&out).expect("create report folder");
    let (json, junit, markdown) = (out.join("r.json"), out.join("r.xml"), out.join("r.md"));
    let repo_arg = repo.to_string_lossy().into_owned();

    let output = grader(&[
        &repo_arg,
        "--rev",
        "HEAD",
        "--exercise",
        "lock-order",
        "--require-full-marks",
        "--json",
        &json.to_string_lossy(),
        "--junit",
        &junit.to_string_lossy(),
        "--markdown",
        &markdown.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("17/17 points over 1 exercises"), "{text}");

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("JSON written"))
            .expect("valid JSON");
    assert_eq!(report["schema"], "xsafe-grade-report");
    assert_eq!(report["version"], 1);
    assert_eq!(report["revision"], "HEAD");
    let xml = std::fs::read_to_string(&junit).expect("JUnit written");
    let parsed = quick_junit::Report::deserialize_from_str(&xml).expect("JUnit parses back");
    let cases = report["exercises"][0]["cases"]
        .as_array()
        .map_or(0, Vec::len);
    assert_eq!(parsed.tests, cases);
    assert_eq!(parsed.failures + parsed.errors, 0);
    let summary = std::fs::read_to_string(&markdown).expect("Markdown written");
    assert!(
        summary.contains("## X-safe Rust grade: 17 / 17 points"),
        "{summary}"
    );

    let output = grader(&[
        &repo_arg,
        "--exercise",
        "lock-order",
        "--require-full-marks",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains("0/17"), "{text}");
    assert!(text.contains("the crate does not compile"), "{text}");
}

/// A revision that does not exist is an input error, with git's reason.
#[test]
fn a_revision_that_does_not_exist_is_refused() {
    let _one = one_at_a_time();
    let repo = solved_repository("no-such-revision");
    let output = grader(&[&repo.to_string_lossy(), "--rev", "no-such-branch"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("cannot read revision `no-such-branch`"),
        "{}",
        stderr(&output)
    );
}
