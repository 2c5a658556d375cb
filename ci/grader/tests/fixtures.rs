//! The grader's fixture submissions (`fixtures/submissions.toml`), each
//! graded by the real `xsafe-grader` binary and compared, exactly, with the
//! score, the case outcomes and reasons, and the ignored files it must
//! report, within a bounded time.
//!
//! The fixtures are built from the course itself (the solutions, their
//! variants, the starters) plus literal edits, so they follow the course
//! when it changes, and an edit that no longer fits fails loudly.

use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use xsafe_grade::{Course, Isolation};
use xsafe_sandbox::{Overlay, Variants, mirror};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Fixtures {
    fixture: Vec<Fixture>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Fixture {
    name: String,
    about: String,
    start: Start,
    #[serde(default)]
    grade: Vec<String>,
    every: Option<Every>,
    #[serde(default)]
    variant: BTreeMap<String, String>,
    #[serde(default)]
    edit: Vec<Edit>,
    #[serde(default)]
    write: Vec<Write>,
    #[serde(default)]
    remove: Vec<Remove>,
    #[serde(default)]
    expect: Vec<Expect>,
    #[serde(default)]
    ignored_outside: Vec<String>,
    case_time_limit: Option<f64>,
    output_limit_kib: Option<usize>,
    memory_limit_mib: Option<u64>,
    max_seconds: u64,
    /// Symbolic links to make in the submission.
    #[serde(default)]
    link: Vec<Link>,
    /// Commit the submission to a git repository and grade `--rev HEAD`.
    #[serde(default)]
    rev: bool,
    /// Text no process left running after the grade may have on its
    /// command line.
    #[serde(default)]
    no_process_left: Vec<String>,
    /// Text the Markdown report may not hold as is. (The text and JUnit
    /// reports of every fixture may hold no control character but line
    /// breaks and tabs.)
    #[serde(default)]
    reports_hold_no: Vec<String>,
    /// With `every`: the ignored entries of an exercise, when not none.
    #[serde(default)]
    ignored_in: BTreeMap<String, Vec<String>>,
    /// Folders of many empty files to add (a submission that grows the
    /// grader's work).
    #[serde(default)]
    junk: Vec<Junk>,
    /// Grade the submission a second time in the same work folder and
    /// target folder: the same grade is expected (nothing the first grade's
    /// processes did may change it).
    #[serde(default)]
    grade_twice: bool,
    /// Then grade the reference solutions of the graded exercises in the
    /// same work folder and target folder (as a class's next student, or a
    /// cached target folder): full marks are expected.
    #[serde(default)]
    then_full_marks: bool,
    /// Files that must not exist after the grades (proof that a planted
    /// program never ran outside its confinement).
    #[serde(default)]
    never_created: Vec<PathBuf>,
    /// Skip the fixture (saying so) unless the grader isolates with
    /// bubblewrap: what it checks is the confinement itself.
    #[serde(default)]
    needs_bubblewrap: bool,
    /// Skip the fixture (saying so) unless the grader can make a cgroup
    /// per run: what it checks is a limit per run.
    #[serde(default)]
    needs_cgroup: bool,
    /// Skip the fixture (saying so) unless Miri runs here: what it checks
    /// is the run under Miri.
    #[serde(default)]
    needs_miri: bool,
    /// Grade under this isolation (`XSAFE_ISOLATION`: `pid-namespace`,
    /// `none`) instead of the best the machine has: what the fixture
    /// checks must hold without bubblewrap too.
    isolation: Option<String>,
    tmp_limit_mib: Option<u64>,
    build_disk_limit_mib: Option<u64>,
    max_files: Option<usize>,
    max_exercise_kib: Option<u64>,
}

/// `count` empty files in the folder `dir` (relative to the submission's
/// `exercises/`), and one file of `bytes` bytes when given.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Junk {
    dir: PathBuf,
    #[serde(default)]
    count: usize,
    #[serde(default)]
    bytes: usize,
}

impl Fixture {
    /// A fixture that grades the same exercises as `other`, with its
    /// limits, and nothing else.
    fn plain(other: &Fixture) -> Fixture {
        Fixture {
            name: other.name.clone(),
            about: other.about.clone(),
            start: other.start,
            grade: other.grade.clone(),
            every: None,
            variant: BTreeMap::new(),
            edit: Vec::new(),
            write: Vec::new(),
            remove: Vec::new(),
            expect: Vec::new(),
            ignored_outside: Vec::new(),
            case_time_limit: other.case_time_limit,
            output_limit_kib: other.output_limit_kib,
            memory_limit_mib: other.memory_limit_mib,
            max_seconds: other.max_seconds,
            link: Vec::new(),
            rev: false,
            no_process_left: Vec::new(),
            reports_hold_no: Vec::new(),
            ignored_in: BTreeMap::new(),
            junk: Vec::new(),
            grade_twice: false,
            then_full_marks: false,
            never_created: Vec::new(),
            needs_bubblewrap: other.needs_bubblewrap,
            needs_cgroup: other.needs_cgroup,
            needs_miri: other.needs_miri,
            isolation: other.isolation.clone(),
            tmp_limit_mib: other.tmp_limit_mib,
            build_disk_limit_mib: other.build_disk_limit_mib,
            max_files: other.max_files,
            max_exercise_kib: other.max_exercise_kib,
        }
    }
}

/// A symbolic link `path` (relative to the submission's `exercises/`)
/// pointing at `to` (relative to the course's root).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Link {
    path: PathBuf,
    to: PathBuf,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum Start {
    Solution,
    Starter,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum Every {
    FullMarks,
    GivenOnly,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Edit {
    file: PathBuf,
    find: String,
    replace: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Write {
    file: PathBuf,
    text: Option<String>,
    hex: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Remove {
    path: PathBuf,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expect {
    exercise: String,
    #[serde(default = "graded")]
    status: String,
    /// `None`: the points of the cases expected to pass, from the manifest
    /// (so that a fixture does not copy points by hand).
    points: Option<u64>,
    /// `None`: the fixture's variant for this exercise says which cases fail.
    failing: Option<BTreeMap<String, String>>,
    reason: Option<String>,
    #[serde(default)]
    ignored: Vec<String>,
}

/// The variant `name` of the solution of `exercise`, from its
/// `variants.toml`.
fn find_variant(exercise: &str, name: &str) -> Overlay {
    let path = root()
        .join("solutions")
        .join(exercise)
        .join("variants.toml");
    let variants = Variants::load(&path).unwrap_or_else(|err| panic!("{err}"));
    variants
        .variants
        .into_iter()
        .find(|variant| variant.name == name)
        .unwrap_or_else(|| panic!("{} has no variant `{name}`", path.display()))
}

/// The cases a variant of a solution fails, each as `lost`.
fn variant_fails(exercise: &str, name: &str) -> BTreeMap<String, String> {
    find_variant(exercise, name)
        .fails
        .into_iter()
        .map(|case| (case, "lost".to_owned()))
        .collect()
}

fn graded() -> String {
    "graded".to_owned()
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the course root exists")
}

/// A fixture's text with `{course}` replaced by the course's root folder.
fn placed(text: &str) -> String {
    text.replace("{course}", &root().to_string_lossy())
}

fn copy_dir(from: &Path, to: &Path) {
    mirror(from, to, &|_| false)
        .unwrap_or_else(|err| panic!("cannot copy {}: {err}", from.display()));
}

fn decode_hex(hex: &str) -> Vec<u8> {
    let digits: Vec<u8> = hex
        .bytes()
        .filter(|byte| !byte.is_ascii_whitespace())
        .collect();
    digits
        .chunks(2)
        .map(|pair| {
            let text = std::str::from_utf8(pair).expect("hex is ASCII");
            u8::from_str_radix(text, 16).expect("valid hex")
        })
        .collect()
}

/// Builds the fixture's submission under `target/` and returns its root.
fn build_submission(course: &Course, fixture: &Fixture) -> PathBuf {
    let root = root();
    let dest = root
        .join("target/xsafe/grader-fixtures")
        .join(&fixture.name);
    let _ = std::fs::remove_dir_all(&dest);
    let exercises = dest.join("exercises");
    for exercise in &course.exercises {
        let submitted = exercises.join(exercise.name());
        copy_dir(&exercise.dir, &submitted);
        if fixture.start == Start::Solution {
            let solution = root.join("solutions").join(exercise.name());
            for learner in &exercise.manifest.learner_files {
                let _ = std::fs::remove_dir_all(submitted.join(learner));
                copy_dir(&solution.join(learner), &submitted.join(learner));
            }
        }
    }
    for (exercise, name) in &fixture.variant {
        find_variant(exercise, name)
            .apply(&exercises.join(exercise))
            .unwrap_or_else(|err| panic!("fixture {}: {err}", fixture.name));
    }
    for edit in &fixture.edit {
        let path = exercises.join(&edit.file);
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("fixture {}: {}: {err}", fixture.name, path.display()));
        assert_eq!(
            text.matches(&edit.find).count(),
            1,
            "fixture {}: the edit of {} must match exactly once: {:?}",
            fixture.name,
            edit.file.display(),
            edit.find
        );
        std::fs::write(&path, text.replacen(&edit.find, &placed(&edit.replace), 1))
            .expect("write edit");
    }
    for write in &fixture.write {
        let path = exercises.join(&write.file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create folder");
        }
        let bytes = match (&write.text, &write.hex) {
            (Some(text), None) => placed(text).into_bytes(),
            (None, Some(hex)) => decode_hex(hex),
            _ => panic!("fixture {}: a write needs `text` or `hex`", fixture.name),
        };
        std::fs::write(&path, bytes).expect("write file");
    }
    for junk in &fixture.junk {
        let dir = exercises.join(&junk.dir);
        std::fs::create_dir_all(&dir).expect("junk folder");
        for index in 0..junk.count {
            std::fs::write(dir.join(format!("junk{index}.rs")), "").expect("junk file");
        }
        if junk.bytes > 0 {
            std::fs::write(dir.join("large.rs"), vec![b'/'; junk.bytes]).expect("large file");
        }
    }
    for remove in &fixture.remove {
        let path = exercises.join(&remove.path);
        if path.is_dir() {
            std::fs::remove_dir_all(&path).expect("remove folder");
        } else {
            std::fs::remove_file(&path).expect("remove file");
        }
    }
    for link in &fixture.link {
        let path = exercises.join(&link.path);
        if std::fs::symlink_metadata(&path).is_ok_and(|meta| meta.is_dir()) {
            std::fs::remove_dir_all(&path).expect("remove folder");
        } else if std::fs::symlink_metadata(&path).is_ok() {
            std::fs::remove_file(&path).expect("remove file");
        }
        std::os::unix::fs::symlink(root.join(&link.to), &path).expect("make the link");
    }
    if fixture.rev {
        let git = |args: &[&str]| {
            let output = Command::new("git")
                .args([
                    "-c",
                    "user.name=Student",
                    "-c",
                    "user.email=student@example.com",
                ])
                .arg("-C")
                .arg(&dest)
                .args(args)
                .output()
                .expect("git runs");
            assert!(
                output.status.success(),
                "git {args:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        };
        git(&["init", "--quiet"]);
        git(&["add", "-A"]);
        git(&["commit", "--quiet", "-m", "submission"]);
    }
    dest
}

/// Whether some running process has `text` on its command line.
fn process_running_with(text: &str) -> bool {
    std::fs::read_dir("/proc")
        .into_iter()
        .flatten()
        .flatten()
        .any(|entry| {
            std::fs::read(entry.path().join("cmdline"))
                .is_ok_and(|cmdline| String::from_utf8_lossy(&cmdline).contains(text))
        })
}

/// What a grade wrote: the JSON report, and the text, Markdown and JUnit
/// reports as written.
struct Written {
    report: Value,
    texts: Vec<(&'static str, String)>,
}

fn grade(fixture: &Fixture, submission: &Path) -> (Written, Duration) {
    grade_as(fixture, submission, &fixture.name)
}

/// Grades `submission` with the fixture's flags, its reports under `label`.
fn grade_as(fixture: &Fixture, submission: &Path, label: &str) -> (Written, Duration) {
    let root = root();
    let reports = root
        .join("target/xsafe/grader-fixtures")
        .join(format!("{label}-reports"));
    let _ = std::fs::remove_dir_all(&reports);
    std::fs::create_dir_all(&reports).expect("reports folder");
    let mut command = Command::new(env!("CARGO_BIN_EXE_xsafe-grader"));
    command
        .arg(submission)
        .args(["--format", "human", "--json"])
        .arg(reports.join("report.json"))
        .arg("--markdown")
        .arg(reports.join("report.md"))
        .arg("--junit")
        .arg(reports.join("report.xml"))
        .arg("--course")
        .arg(&root)
        .arg("--work-dir")
        .arg(root.join("target/xsafe/grader"))
        .arg("--target-dir")
        .arg(root.join("target/xsafe/build"));
    for exercise in &fixture.grade {
        command.args(["--exercise", exercise]);
    }
    if let Some(limit) = fixture.case_time_limit {
        command.args(["--case-time-limit", &limit.to_string()]);
    }
    if let Some(kib) = fixture.output_limit_kib {
        command.args(["--output-limit", &kib.to_string()]);
    }
    if let Some(mib) = fixture.memory_limit_mib {
        command.args(["--memory-limit", &mib.to_string()]);
    }
    if let Some(mib) = fixture.tmp_limit_mib {
        command.args(["--tmp-limit", &mib.to_string()]);
    }
    if let Some(mib) = fixture.build_disk_limit_mib {
        command.args(["--build-disk-limit", &mib.to_string()]);
    }
    if let Some(files) = fixture.max_files {
        command.args(["--max-files", &files.to_string()]);
    }
    if let Some(kib) = fixture.max_exercise_kib {
        command.args(["--max-exercise-size", &kib.to_string()]);
    }
    if fixture.rev {
        command.args(["--rev", "HEAD"]);
    }
    if let Some(isolation) = &fixture.isolation {
        command.env("XSAFE_ISOLATION", isolation);
    }
    let started = Instant::now();
    let output = command.output().expect("the grader starts");
    let took = started.elapsed();
    assert_eq!(
        output.status.code(),
        Some(0),
        "fixture {}: the grader must grade (exit 0):\n{}",
        fixture.name,
        String::from_utf8_lossy(&output.stderr)
    );
    let read = |name: &str| {
        std::fs::read_to_string(reports.join(name))
            .unwrap_or_else(|err| panic!("fixture {}: no {name}: {err}", fixture.name))
    };
    let report: Value = serde_json::from_str(&read("report.json"))
        .unwrap_or_else(|err| panic!("fixture {}: the report is not JSON: {err}", fixture.name));
    let texts = vec![
        ("text", String::from_utf8_lossy(&output.stdout).into_owned()),
        ("Markdown", read("report.md")),
        ("JUnit", read("report.xml")),
    ];
    (Written { report, texts }, took)
}

/// Compares one exercise's report with what the fixture expects, and
/// returns every difference.
fn check_exercise(fixture: &str, exercise: &Value, expect: &Expect, problems: &mut Vec<String>) {
    let mut problem =
        |text: String| problems.push(format!("{fixture}/{}: {text}", expect.exercise));
    if exercise["status"] != expect.status.as_str() {
        problem(format!(
            "status {} instead of {}",
            exercise["status"], expect.status
        ));
    }
    if let Some(points) = expect.points
        && exercise["points"] != points
    {
        problem(format!("{} points instead of {points}", exercise["points"]));
    }
    if let Some(reason) = &expect.reason {
        let actual = exercise["reason"].as_str().unwrap_or("");
        if !actual.contains(reason.as_str()) {
            problem(format!("reason {actual:?} does not say {reason:?}"));
        }
    }
    let failing = expect.failing.clone().unwrap_or_default();
    let default = failing.get("*");
    for case in exercise["cases"].as_array().into_iter().flatten() {
        let name = case["name"].as_str().unwrap_or("?");
        let wanted = failing
            .get(name)
            .or(default)
            .map_or("passed", String::as_str);
        let (status, words) = wanted.split_once(": ").unwrap_or((wanted, ""));
        let reason = case["reason"].as_str().unwrap_or("");
        // `lost`: any outcome but a pass (a starter's case may fail in
        // more than one way; each loses the points).
        let status_ok = if status == "lost" {
            case["status"] != "passed"
        } else {
            case["status"] == status
        };
        if !status_ok || !reason.contains(words) {
            problem(format!(
                "case {name} is {} ({reason:?}) instead of {wanted:?}",
                case["status"]
            ));
        }
    }
    for name in failing.keys().filter(|name| *name != "*") {
        let known = exercise["cases"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|case| case["name"] == name.as_str());
        if !known {
            problem(format!(
                "the fixture names a case {name} that the exercise does not have"
            ));
        }
    }
    let ignored = ignored_list(&exercise["ignored"]);
    if ignored != expect.ignored {
        problem(format!(
            "ignored {ignored:?} instead of {:?}",
            expect.ignored
        ));
    }
}

/// `expect` with its points filled in where the fixture leaves them out:
/// the sum of the manifest's points of every case expected to pass.
fn with_derived_points(course: &Course, expect: &Expect) -> Expect {
    let mut expect = expect.clone();
    if expect.points.is_some() {
        return expect;
    }
    let Some(exercise) = course.exercise(&expect.exercise) else {
        return expect;
    };
    let failing = expect.failing.clone().unwrap_or_default();
    let passing: u32 = exercise
        .manifest
        .cases
        .iter()
        .filter(|case| {
            let wanted = failing
                .get(&case.name())
                .or(failing.get("*"))
                .map_or("passed", String::as_str);
            wanted.split(": ").next() == Some("passed")
        })
        .map(|case| case.points)
        .sum();
    expect.points = Some(u64::from(passing));
    expect
}

/// A report's list of ignored files, each as `PATH CHANGE`.
fn ignored_list(ignored: &Value) -> Vec<String> {
    ignored
        .as_array()
        .into_iter()
        .flatten()
        .map(|ignored| {
            format!(
                "{} {}",
                ignored["path"].as_str().unwrap_or("?"),
                ignored["change"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

fn check_every(fixture: &Fixture, course: &Course, report: &Value, problems: &mut Vec<String>) {
    let Some(every) = fixture.every else { return };
    for exercise in &course.exercises {
        if !fixture.grade.is_empty() && !fixture.grade.iter().any(|name| name == exercise.name()) {
            continue;
        }
        let manifest = &exercise.manifest;
        let given = manifest.given_points();
        let expect = Expect {
            exercise: exercise.name().to_owned(),
            status: graded(),
            points: Some(u64::from(match every {
                Every::FullMarks => manifest.total_points(),
                Every::GivenOnly => given,
            })),
            failing: Some(match every {
                Every::FullMarks => BTreeMap::new(),
                Every::GivenOnly => manifest
                    .cases_needing_work()
                    .into_iter()
                    .map(|name| (name, "lost".to_owned()))
                    .collect(),
            }),
            reason: None,
            ignored: fixture
                .ignored_in
                .get(exercise.name())
                .cloned()
                .unwrap_or_default(),
        };
        match find_exercise(report, exercise.name()) {
            Some(found) => check_exercise(&fixture.name, found, &expect, problems),
            None => problems.push(format!(
                "{}: no report for {}",
                fixture.name,
                exercise.name()
            )),
        }
    }
}

fn find_exercise<'a>(report: &'a Value, name: &str) -> Option<&'a Value> {
    report["exercises"]
        .as_array()?
        .iter()
        .find(|exercise| exercise["name"] == name)
}

/// Checks one grade of a fixture: processes left, reports, time, points,
/// cases and ignored files.
fn check_grade(
    fixture: &Fixture,
    course: &Course,
    label: &str,
    written: Written,
    took: Duration,
    problems: &mut Vec<String>,
) {
    let report = written.report;
    for text in &fixture.no_process_left {
        if process_running_with(text) {
            problems.push(format!(
                "{label}: a process with {text:?} on its command line outlived the grade"
            ));
        }
    }
    for (format, text) in &written.texts {
        if *format != "Markdown" {
            if text
                .chars()
                .any(|c| c.is_control() && !matches!(c, '\n' | '\t'))
            {
                problems.push(format!(
                    "{label}: the {format} report holds a control character"
                ));
            }
            continue;
        }
        for forbidden in &fixture.reports_hold_no {
            if text.contains(forbidden.as_str()) {
                problems.push(format!(
                    "{label}: the {format} report holds {forbidden:?} as is"
                ));
            }
        }
    }
    // What a case says (its reason, its details, the exercise's reason)
    // names places in the exercise, never folders of the grader's machine.
    let machine = root().display().to_string();
    for exercise in report["exercises"].as_array().into_iter().flatten() {
        let mut texts = vec![exercise["reason"].as_str().unwrap_or("")];
        for case in exercise["cases"].as_array().into_iter().flatten() {
            texts.push(case["reason"].as_str().unwrap_or(""));
            texts.push(case["details"].as_str().unwrap_or(""));
        }
        if texts.iter().any(|text| text.contains(&machine)) {
            problems.push(format!(
                "{label}: the report of {} names a folder of the grader's machine ({machine})",
                exercise["name"]
            ));
        }
    }
    eprintln!("fixture {label:<32} graded in {:>6.1}s", took.as_secs_f64());
    if took > Duration::from_secs(fixture.max_seconds) {
        problems.push(format!(
            "{label}: took {:.0}s, more than its bound of {}s",
            took.as_secs_f64(),
            fixture.max_seconds
        ));
    }
    check_every(fixture, course, &report, problems);
    for expect in &fixture.expect {
        let from_variant;
        let expect = match (&expect.failing, fixture.variant.get(&expect.exercise)) {
            (None, Some(variant)) => {
                from_variant = Expect {
                    failing: Some(variant_fails(&expect.exercise, variant)),
                    ..expect.clone()
                };
                &from_variant
            }
            _ => expect,
        };
        let with_points = with_derived_points(course, expect);
        let expect = &with_points;
        match find_exercise(&report, &expect.exercise) {
            Some(exercise) => check_exercise(label, exercise, expect, problems),
            None => problems.push(format!("{label}: no report for {}", expect.exercise)),
        }
    }
    let outside = ignored_list(&report["ignored"]);
    if outside != fixture.ignored_outside {
        problems.push(format!(
            "{label}: ignored outside exercises {outside:?} instead of {:?}",
            fixture.ignored_outside
        ));
    }
    let sum: u64 = report["exercises"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|exercise| exercise["points"].as_u64())
        .sum();
    if report["points"] != sum {
        problems.push(format!(
            "{label}: total {} is not the sum {sum}",
            report["points"]
        ));
    }
}

/// Every fixture gets exactly its expected grade, within its time bound,
/// and the grader's totals add up.
#[test]
fn fixture_submissions_get_their_expected_grades() {
    let root = root();
    let course = Course::load(&root).expect("the course loads");
    let text = std::fs::read_to_string(root.join("ci/grader/fixtures/submissions.toml"))
        .expect("the fixtures are readable");
    let fixtures: Fixtures = toml::from_str(&text)
        .unwrap_or_else(|err| panic!("fixtures/submissions.toml is not valid: {err}"));
    let only = std::env::var("XSAFE_FIXTURE").ok();
    let mut problems = Vec::new();
    let _ = std::fs::remove_file("/tmp/xsafe-grader-ran-a-build-script");
    for fixture in &fixtures.fixture {
        if only.as_ref().is_some_and(|only| *only != fixture.name) {
            continue;
        }
        assert!(
            !fixture.about.is_empty(),
            "fixture {} says what it is",
            fixture.name
        );
        if fixture.needs_bubblewrap && !matches!(Isolation::detect(), Isolation::Bubblewrap { .. })
        {
            eprintln!(
                "fixture {:<32} skipped: it checks bubblewrap's confinement, and bubblewrap does not work here",
                fixture.name
            );
            continue;
        }
        if fixture.needs_cgroup
            && let xsafe_grade::cgroup::Availability::Unavailable(why) =
                xsafe_grade::cgroup::availability()
        {
            eprintln!(
                "fixture {:<32} skipped: it checks a limit per run, and there is no cgroup here ({why})",
                fixture.name
            );
            continue;
        }
        if fixture.needs_miri
            && let Err(why) = xsafe_grade::miri::Miri::find()
        {
            eprintln!(
                "fixture {:<32} skipped: it checks the run under Miri, and there is none here ({why})",
                fixture.name
            );
            continue;
        }
        for path in &fixture.never_created {
            let _ = std::fs::remove_file(path);
        }
        let submission = build_submission(&course, fixture);
        let rounds = if fixture.grade_twice { 2 } else { 1 };
        for round in 1..=rounds {
            let label = if round == 1 {
                fixture.name.clone()
            } else {
                format!("{}-again", fixture.name)
            };
            let (written, took) = grade_as(fixture, &submission, &label);
            check_grade(fixture, &course, &label, written, took, &mut problems);
        }
        if fixture.then_full_marks {
            let next = Fixture {
                name: format!("{}-then-the-solutions", fixture.name),
                start: Start::Solution,
                every: Some(Every::FullMarks),
                ..Fixture::plain(fixture)
            };
            let submission = build_submission(&course, &next);
            let (written, took) = grade(&next, &submission);
            check_grade(&next, &course, &next.name, written, took, &mut problems);
        }
        for path in &fixture.never_created {
            if path.exists() {
                problems.push(format!(
                    "{}: {} exists: a planted program ran outside its confinement",
                    fixture.name,
                    path.display()
                ));
            }
        }
    }
    assert!(
        !Path::new("/tmp/xsafe-grader-ran-a-build-script").exists(),
        "a submitted build script ran"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The threat model in the instructors' appendix names, for each threat,
/// what tests it: every name in its "Tested by" column is a fixture of
/// this file or a test function of the grader's crates, so the table
/// cannot cite a test that was renamed or removed.
#[test]
fn the_threat_model_cites_tests_that_exist() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let book = std::fs::read_to_string(root.join("book/src/instructors.md")).expect("appendix");
    let text = std::fs::read_to_string(root.join("ci/grader/fixtures/submissions.toml"))
        .expect("fixtures");
    let fixtures: Fixtures = toml::from_str(&text).expect("fixtures parse");
    let mut sources = String::new();
    for dir in [
        "ci/grade/src",
        "ci/grader/src",
        "ci/grader/tests",
        "ci/sandbox/src",
    ] {
        for entry in std::fs::read_dir(root.join(dir))
            .expect("sources")
            .flatten()
        {
            sources.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
        }
    }
    let table = book
        .split("### Each threat, what holds, how it is tested, what is left")
        .nth(1)
        .expect("the threat table's section")
        .split("\n## ")
        .next()
        .unwrap_or_default();
    let mut cited = 0;
    for row in table.lines().filter(|line| line.starts_with("| ")).skip(2) {
        let tested_by = row.split(" | ").nth(2).unwrap_or_default();
        for name in tested_by.split('`').skip(1).step_by(2) {
            cited += 1;
            let known = fixtures.fixture.iter().any(|fixture| fixture.name == name)
                || sources.contains(&format!("fn {name}("));
            assert!(
                known,
                "the threat model cites `{name}`, which is no fixture or test"
            );
        }
    }
    assert!(
        cited >= 20,
        "only {cited} tests cited: is the table still there?"
    );
}
