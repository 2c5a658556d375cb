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
///
/// Classroom still gets a result per exercise, worth 0 of its points,
/// with the reason, so its reporter has a score to send.
#[test]
fn a_missing_submission_cannot_be_graded() {
    let results = root().join("target/xsafe/grader-cli-reports/missing-classroom.txt");
    let _ = std::fs::create_dir_all(results.parent().expect("a folder"));
    let _ = std::fs::remove_file(&results);
    let output = grader(&[
        "/no/such/submission",
        "--classroom",
        &results.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("/no/such/submission: not a folder"),
        "{}",
        stderr(&output)
    );
    let course = xsafe_grade::Course::load(&root()).expect("the course loads");
    let results = classroom_results(&results);
    assert_eq!(results.len(), course.exercises.len());
    for (exercise, (id, result)) in course.exercises.iter().zip(&results) {
        assert_eq!(*id, exercise.name().replace('-', "_"));
        assert_eq!(result["status"], "error");
        assert_eq!(result["max_score"], exercise.manifest.total_points());
        assert_eq!(score(result), 0);
        assert!(
            result["tests"][0]["message"]
                .as_str()
                .is_some_and(|message| message.contains("not a folder")),
            "{result}"
        );
    }
}

/// The Classroom results in a `$GITHUB_OUTPUT` file: `(runner id, JSON)`
/// per line.
fn classroom_results(path: &Path) -> Vec<(String, serde_json::Value)> {
    use base64::Engine as _;
    let text = std::fs::read_to_string(path).expect("the results are written");
    text.lines()
        .map(|line| {
            let (id, encoded) = line.split_once('=').expect("RUNNER_ID=BASE64");
            let json = base64::engine::general_purpose::STANDARD
                .decode(encoded)
                .expect("base64");
            let value = serde_json::from_slice(&json).expect("JSON");
            (id.to_owned(), value)
        })
        .collect()
}

/// The points a Classroom result's tests add up to (what Classroom counts).
fn score(result: &serde_json::Value) -> u64 {
    result["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|test| test["score"].as_u64())
        .sum()
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
    let classroom = out.join("r.classroom");
    let _ = std::fs::remove_file(&classroom);
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
        "--classroom",
        &classroom.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = String::from_utf8_lossy(&output.stdout);
    let full = full_points("lock-order");
    assert!(
        text.contains(&format!("{full}/{full} points over 1 exercises")),
        "{text}"
    );

    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("JSON written"))
            .expect("valid JSON");
    assert_eq!(report["schema"], "xsafe-grade-report");
    assert_eq!(report["version"], xsafe_report::model::SCHEMA_VERSION);
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
        summary.contains(&format!("## X-safe Rust grade: {full} / {full} points")),
        "{summary}"
    );
    let results = classroom_results(&classroom);
    assert_eq!(results.len(), 1);
    let (id, result) = &results[0];
    assert_eq!(id, "lock_order");
    assert_eq!(result["status"], "pass");
    assert_eq!(result["max_score"], full);
    assert_eq!(score(result), u64::from(full));
    assert_eq!(result["tests"].as_array().map_or(0, Vec::len), cases);

    let _ = std::fs::remove_file(&classroom);
    let output = grader(&[
        &repo_arg,
        "--exercise",
        "lock-order",
        "--require-full-marks",
        "--classroom",
        &classroom.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let results = classroom_results(&classroom);
    assert_eq!(results[0].1["status"], "fail");
    assert_eq!(
        score(&results[0].1),
        0,
        "a crate that does not compile earns nothing"
    );
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.contains(&format!("0/{full}")), "{text}");
    assert!(text.contains("the crate does not compile"), "{text}");
}

/// The full marks of `exercise`, read from its manifest (points change
/// when cases are added; the tests must not).
fn full_points(exercise: &str) -> u32 {
    let course = xsafe_grade::Course::load(&root()).expect("the course loads");
    course
        .exercise(exercise)
        .unwrap_or_else(|| panic!("{exercise} is an exercise"))
        .manifest
        .total_points()
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

/// A copy of the course's `exercises/ordered-tree`, with the solution's
/// learner files when `solved`, and `edit` applied to `src/lib.rs`.
fn ordered_tree_copy(name: &str, solved: bool, edit: Option<(&str, &str)>) -> PathBuf {
    let root = root();
    let dest = root.join("target/xsafe/grader-cli-copies").join(name);
    let _ = std::fs::remove_dir_all(&dest);
    let exercise = dest.join("exercises/ordered-tree");
    copy_dir(&root.join("exercises/ordered-tree"), &exercise);
    if solved {
        std::fs::remove_dir_all(exercise.join("src")).expect("remove starter");
        copy_dir(
            &root.join("solutions/ordered-tree/src"),
            &exercise.join("src"),
        );
    }
    if let Some((find, replace)) = edit {
        let lib = exercise.join("src/lib.rs");
        let text = std::fs::read_to_string(&lib).expect("lib.rs");
        assert!(text.contains(find), "the edit fits lib.rs");
        std::fs::write(&lib, text.replacen(find, replace, 1)).expect("edit lib.rs");
    }
    dest
}

/// A grader started on `submission` with the shared work folder and target
/// directory, writing its JSON report on standard output.
fn spawn_grader(submission: &Path, extra: &[&str]) -> std::process::Child {
    let root = root();
    Command::new(env!("CARGO_BIN_EXE_xsafe-grader"))
        .arg(submission)
        .args(["--exercise", "ordered-tree", "--format", "json", "--course"])
        .arg(&root)
        .arg("--work-dir")
        .arg(root.join("target/xsafe/grader-cli-shared"))
        .arg("--target-dir")
        .arg(root.join("target/xsafe/build"))
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the grader starts")
}

fn points_of(child: std::process::Child) -> (u64, serde_json::Value) {
    let output = child.wait_with_output().expect("the grader ends");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    (report["points"].as_u64().expect("points"), report)
}

/// Graders at once on one work folder and one target directory: the
/// starter, the solution, and the solution again (the same submission twice
/// at once). Each gets its own grade: no grade builds or runs another's
/// copy.
#[test]
fn graders_at_once_keep_to_their_own_submission() {
    let starter = ordered_tree_copy("at-once-starter", false, None);
    let solution = ordered_tree_copy("at-once-solution", true, None);
    let children = [
        spawn_grader(&starter, &[]),
        spawn_grader(&solution, &[]),
        spawn_grader(&solution, &[]),
    ];
    let [starter, first, second] = children.map(points_of);
    let max = first.1["max_points"].as_u64().expect("max points");
    let given: u64 = starter.1["exercises"][0]["cases"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|case| case["status"] == "passed")
        .filter_map(|case| case["points"].as_u64())
        .sum();
    assert!(
        starter.0 < max && starter.0 == given,
        "the starter got {}",
        starter.0
    );
    assert_eq!(first.0, max, "the solution graded alongside the starter");
    assert_eq!(second.0, max, "the same solution graded twice at once");
}

/// A submission that hangs the compiler holds the shared target directory
/// until its build limit; a grader started meanwhile waits for it outside
/// its own limits, so a build limit shorter than the wait costs it nothing.
#[test]
fn a_hung_build_does_not_spend_another_graders_limit() {
    let hanging = ordered_tree_copy(
        "hangs-the-compiler",
        true,
        Some((
            "mod iter;",
            "#![allow(long_running_const_eval)]\nconst _: () = loop {};\n\nmod iter;",
        )),
    );
    let solution = ordered_tree_copy("waits-for-the-hang", true, None);
    let hung = spawn_grader(&hanging, &["--build-time-limit", "25"]);
    std::thread::sleep(std::time::Duration::from_secs(3));
    let waiting = spawn_grader(&solution, &["--build-time-limit", "20"]);
    let (points, report) = points_of(waiting);
    assert_eq!(
        points,
        report["max_points"].as_u64().expect("max points"),
        "the waiting grader lost points: {report}"
    );
    let (hung_points, hung_report) = points_of(hung);
    assert_eq!(hung_points, 0);
    let reason = hung_report["exercises"][0]["reason"].as_str().unwrap_or("");
    assert!(reason.contains("does not compile"), "{reason}");
}

/// `--class` grades every submission in a folder into one gradebook: a
/// full solution, a starter, a copy that does not compile, a copy without
/// the exercise, and a folder name a spreadsheet would run as a formula.
/// Each gets its own row and reports; the broken and empty ones do not
/// stop the others, and the formula stays text.
#[test]
fn a_class_gets_a_gradebook() {
    let _one = one_at_a_time();
    let root = root();
    let class = root.join("target/xsafe/grader-cli-class");
    let _ = std::fs::remove_dir_all(&class);
    std::fs::create_dir_all(&class).expect("class folder");
    let place = |copy: PathBuf, name: &str| {
        std::fs::rename(&copy, class.join(name)).expect("move the copy into the class");
    };
    place(ordered_tree_copy("class-alice", true, None), "alice");
    place(ordered_tree_copy("class-bob", false, None), "bob");
    place(
        ordered_tree_copy("class-formula", true, Some(("mod iter;", "mod iter mod;"))),
        "=HYPERLINK(1)",
    );
    std::fs::create_dir_all(class.join("dana/exercises")).expect("an empty copy");
    let gradebook = root.join("target/xsafe/grader-cli-gradebook");
    let _ = std::fs::remove_dir_all(&gradebook);

    let output = grader(&[
        &class.to_string_lossy(),
        "--class",
        "--gradebook",
        &gradebook.to_string_lossy(),
        "--exercise",
        "ordered-tree",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let course = xsafe_grade::Course::load(&root).expect("the course loads");
    let manifest = &course
        .exercise("ordered-tree")
        .expect("ordered-tree")
        .manifest;
    let full = manifest.total_points();
    let given = manifest.given_points();

    let csv = std::fs::read_to_string(gradebook.join("grades.csv")).expect("grades.csv");
    let rows: Vec<Vec<String>> = csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(csv.as_bytes())
        .records()
        .map(|record| {
            record
                .expect("a CSV record")
                .iter()
                .map(str::to_owned)
                .collect()
        })
        .collect();
    assert_eq!(
        rows[0],
        ["student", "ordered-tree", "total", "max", "status"]
    );
    let row = |name: &str| {
        rows.iter()
            .find(|row| row[0] == name)
            .unwrap_or_else(|| panic!("no row for {name} in\n{csv}"))
            .clone()
    };
    assert_eq!(row("alice")[1], full.to_string(), "{csv}");
    assert_eq!(row("alice")[4], "graded");
    assert_eq!(row("bob")[1], given.to_string(), "{csv}");
    assert_eq!(row("'=HYPERLINK(1)")[1], "0", "{csv}");
    assert!(
        row("'=HYPERLINK(1)")[4].contains("does not compile: ordered-tree"),
        "{csv}"
    );
    assert_eq!(row("dana")[1], "0", "{csv}");
    assert!(row("dana")[4].contains("not graded: ordered-tree"), "{csv}");
    assert_eq!(rows.len(), 5, "a header and four students:\n{csv}");
    for name in ["alice", "bob", "dana", "_HYPERLINK_1_"] {
        let report = gradebook.join("students").join(name).join("report.json");
        assert!(report.exists(), "{} is written", report.display());
    }
    let summary = std::fs::read_to_string(gradebook.join("gradebook.md")).expect("gradebook.md");
    assert!(summary.contains("# Gradebook: 4 submissions"), "{summary}");
}

/// `git` in `repo`, with a fixed author and no configuration of the
/// machine's; its standard output, trimmed.
fn git_in(repo: &Path, args: &[&str], input: Option<&str>) -> String {
    use std::io::Write as _;
    let mut child = Command::new("git")
        .args(args)
        .current_dir(repo)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_AUTHOR_NAME", "x")
        .env("GIT_AUTHOR_EMAIL", "x@example.com")
        .env("GIT_COMMITTER_NAME", "x")
        .env("GIT_COMMITTER_EMAIL", "x@example.com")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("git runs");
    if let Some(input) = input
        && let Some(mut stdin) = child.stdin.take()
    {
        stdin.write_all(input.as_bytes()).expect("git's input");
    }
    let output = child.wait_with_output().expect("git ends");
    assert!(output.status.success(), "git {args:?}");
    String::from_utf8_lossy(&output.stdout).trim().to_owned()
}

/// A class list with a repository whose last commit adds a tree bomb (a
/// few kilobytes of trees that name each other ten times per level, six
/// levels deep: a million files) beside a correct ordered tree: the clone
/// writes no tree, the revision is counted from git's objects and refused
/// before anything of it reaches the disk, the student gets a row with the
/// reason, and the next student is graded.
#[test]
fn a_tree_bomb_in_a_class_is_refused_before_the_disk() {
    let _one = one_at_a_time();
    let root = root();
    let repos = root.join("target/xsafe/grader-cli-bomb-repos");
    let _ = std::fs::remove_dir_all(&repos);
    std::fs::create_dir_all(&repos).expect("repositories folder");
    let honest = repos.join("honest");
    std::fs::rename(ordered_tree_copy("bomb-honest", true, None), &honest).expect("move");
    git_in(&honest, &["init", "--quiet"], None);
    git_in(&honest, &["add", "-A"], None);
    git_in(&honest, &["commit", "--quiet", "-m", "solution"], None);
    let bomb = repos.join("bomb");
    std::fs::rename(ordered_tree_copy("bomb-bomb", true, None), &bomb).expect("move");
    git_in(&bomb, &["init", "--quiet"], None);
    git_in(&bomb, &["add", "-A"], None);
    git_in(&bomb, &["commit", "--quiet", "-m", "solution"], None);
    let blob = git_in(&bomb, &["hash-object", "-w", "--stdin"], Some("x\n"));
    let mut listing: String = (0..10)
        .map(|n| format!("100644 blob {blob}\tf{n}\n"))
        .collect();
    let mut tree = git_in(&bomb, &["mktree"], Some(&listing));
    for _ in 0..5 {
        listing = (0..10)
            .map(|n| format!("040000 tree {tree}\td{n}\n"))
            .collect();
        tree = git_in(&bomb, &["mktree"], Some(&listing));
    }
    let mut top = git_in(&bomb, &["ls-tree", "HEAD"], None);
    top.push_str(&format!("\n040000 tree {tree}\tbomb\n"));
    let top = git_in(&bomb, &["mktree"], Some(&top));
    let commit = git_in(
        &bomb,
        &["commit-tree", &top, "-p", "HEAD", "-m", "a million files"],
        None,
    );
    git_in(&bomb, &["update-ref", "HEAD", &commit], None);
    let list = repos.join("class.txt");
    std::fs::write(
        &list,
        format!("honest {}\nmallory {}\n", honest.display(), bomb.display()),
    )
    .expect("class list");
    let gradebook = root.join("target/xsafe/grader-cli-bomb-gradebook");
    let _ = std::fs::remove_dir_all(&gradebook);
    // The shared work folder of `grader`, where the class's clones go.
    let work = root.join("target/xsafe/grader-cli");

    let started = std::time::Instant::now();
    let output = grader(&[
        &list.to_string_lossy(),
        "--class",
        "--gradebook",
        &gradebook.to_string_lossy(),
        "--exercise",
        "ordered-tree",
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let csv = std::fs::read_to_string(gradebook.join("grades.csv")).expect("grades.csv");
    let full = full_points("ordered-tree");
    let row = |name: &str| -> Vec<String> {
        csv.lines()
            .find(|line| line.starts_with(&format!("{name},")))
            .unwrap_or_else(|| panic!("no row for {name} in\n{csv}"))
            .split(',')
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(row("honest")[1], full.to_string(), "{csv}");
    assert_eq!(row("mallory")[1], "", "not graded: {csv}");
    assert_eq!(row("mallory")[2], "0", "{csv}");
    assert!(csv.contains("more than 50000 files"), "{csv}");
    let written = walkdir_count(&work);
    assert!(
        written < 20_000,
        "the bomb reached the disk: {written} entries in the work folder"
    );
    eprintln!("class with a tree bomb graded in {:?}", started.elapsed());
    let _ = std::fs::remove_dir_all(&repos);
}

/// How many entries a folder holds, at any depth (links not followed).
fn walkdir_count(dir: &Path) -> usize {
    let mut count = 0;
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            count += 1;
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(entry.path());
            }
        }
    }
    count
}

/// A class list for the sharding tests: a full solution, a starter, a copy
/// that does not compile and one without the exercise (each a git
/// repository), and a repository that cannot be cloned. Returns the list.
fn sharded_class() -> PathBuf {
    let root = root();
    let repos = root.join("target/xsafe/grader-cli-shard-repos");
    let _ = std::fs::remove_dir_all(&repos);
    std::fs::create_dir_all(&repos).expect("repositories folder");
    let commit = |repo: &Path| {
        git_in(repo, &["init", "--quiet"], None);
        git_in(repo, &["add", "-A"], None);
        git_in(repo, &["commit", "--quiet", "-m", "work"], None);
    };
    let mut lines = String::new();
    for (name, solved, edit) in [
        ("alice", true, None),
        ("bob", false, None),
        ("carol", true, Some(("mod iter;", "mod iter mod;"))),
    ] {
        let repo = repos.join(name);
        std::fs::rename(
            ordered_tree_copy(&format!("shard-{name}"), solved, edit),
            &repo,
        )
        .expect("move");
        commit(&repo);
        lines.push_str(&format!("{name} {}\n", repo.display()));
    }
    let dana = repos.join("dana");
    std::fs::create_dir_all(dana.join("exercises")).expect("dana");
    std::fs::write(dana.join("exercises/README.md"), "nothing yet\n").expect("dana");
    commit(&dana);
    // The list's order is not the names' order: rows follow the list.
    let list = format!(
        "erin {}\ndana {}\n{lines}",
        repos.join("no-such-repository").display(),
        dana.display()
    );
    let path = repos.join("class.txt");
    std::fs::write(&path, list).expect("class list");
    path
}

/// Recursively drops every `seconds` key (a report's timings).
fn without_timings(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            map.remove("seconds");
            map.values_mut().for_each(without_timings);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(without_timings),
        _ => {}
    }
}

/// The files under `dir`, relative, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(folder) = pending.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            if entry.file_type().is_ok_and(|kind| kind.is_dir()) {
                pending.push(entry.path());
            } else if let Ok(relative) = entry.path().strip_prefix(dir) {
                files.push(relative.to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    files
}

fn copy_part(from: &Path, to: &Path) {
    copy_dir(from, to);
}

/// A class graded as three shards and merged gives the gradebook of the
/// unsharded run: `grades.csv` and `gradebook.md` byte for byte (neither
/// holds a timing), rows in the list's order, the same students' reports
/// (equal but for their timings). A student whose repository cannot be
/// cloned gets a row with the reason. Each shard prints a progress line
/// per student. Then the merge refuses a missing shard, a shard given
/// twice, a part of another course commit and one of another N, naming
/// each.
#[test]
fn three_shards_merge_into_the_unsharded_gradebook() {
    let _one = one_at_a_time();
    let root = root();
    let list = sharded_class();
    let out = root.join("target/xsafe/grader-cli-shards");
    let _ = std::fs::remove_dir_all(&out);
    let list = list.to_string_lossy().into_owned();
    let class = |gradebook: &Path, shard: Option<&str>| {
        let gradebook = gradebook.to_string_lossy().into_owned();
        let mut args = vec![
            list.as_str(),
            "--class",
            "--gradebook",
            &gradebook,
            "--exercise",
            "ordered-tree",
            "--seed",
            "0x5eed",
            "--no-miri",
        ];
        if let Some(shard) = shard {
            args.extend(["--shard", shard]);
        }
        let output = grader(&args);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        stderr(&output)
    };
    let whole = out.join("unsharded");
    class(&whole, None);
    let parts = out.join("parts");
    let mut progress = String::new();
    for k in 1..=3 {
        progress.push_str(&class(
            &parts.join(format!("shard-{k}")),
            Some(&format!("{k}/3")),
        ));
    }
    assert!(
        progress.contains("(shard 1/3: 1/2 done, ") && progress.contains(" elapsed, about "),
        "a progress line per student:\n{progress}"
    );
    let merged = out.join("merged");
    let output = grader(&[
        &parts.to_string_lossy(),
        "--merge",
        "--gradebook",
        &merged.to_string_lossy(),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));

    let read = |dir: &Path, file: &str| {
        std::fs::read_to_string(dir.join(file))
            .unwrap_or_else(|err| panic!("{}/{file}: {err}", dir.display()))
    };
    let csv = read(&whole, "grades.csv");
    assert_eq!(read(&merged, "grades.csv"), csv, "grades.csv");
    assert_eq!(
        read(&merged, "gradebook.md"),
        read(&whole, "gradebook.md"),
        "gradebook.md"
    );
    let names: Vec<&str> = csv
        .lines()
        .skip(1)
        .filter_map(|line| line.split(',').next())
        .collect();
    assert_eq!(names, ["erin", "dana", "alice", "bob", "carol"], "{csv}");
    let erin = csv.lines().nth(1).unwrap_or_default();
    assert!(erin.contains("not graded: cannot clone"), "{csv}");
    let full = full_points("ordered-tree");
    assert!(
        csv.contains(&format!("alice,{full},{full},{full},graded")),
        "{csv}"
    );

    let reports = files_under(&whole.join("students"));
    assert_eq!(files_under(&merged.join("students")), reports);
    assert!(
        reports.contains(&"alice/report.json".to_owned()),
        "{reports:?}"
    );
    for file in reports.iter().filter(|file| file.ends_with(".json")) {
        let json = |dir: &Path| {
            let mut value: serde_json::Value =
                serde_json::from_str(&read(&dir.join("students"), file)).expect("a report");
            without_timings(&mut value);
            value
        };
        assert_eq!(json(&merged), json(&whole), "{file}");
    }

    // Refusals, each naming the problem.
    let refused = |name: &str, setup: &dyn Fn(&Path)| {
        let folder = out.join(name);
        let _ = std::fs::remove_dir_all(&folder);
        std::fs::create_dir_all(&folder).expect("parts folder");
        setup(&folder);
        let output = grader(&[
            &folder.to_string_lossy(),
            "--merge",
            "--gradebook",
            &out.join(format!("{name}-gradebook")).to_string_lossy(),
        ]);
        assert_eq!(output.status.code(), Some(2), "{name}: {}", stderr(&output));
        assert!(
            !out.join(format!("{name}-gradebook/grades.csv")).exists(),
            "{name}: nothing written"
        );
        stderr(&output)
    };
    let part = |k: usize| parts.join(format!("shard-{k}"));
    let edit = |folder: &Path, change: &dyn Fn(&mut serde_json::Value)| {
        let path = folder.join("part.json");
        let mut value: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("part.json"))
                .expect("a part");
        change(&mut value);
        std::fs::write(&path, value.to_string()).expect("part.json");
    };
    let message = refused("missing", &|folder| {
        copy_part(&part(1), &folder.join("a"));
        copy_part(&part(3), &folder.join("c"));
    });
    assert!(message.contains("shard 2/3 is missing"), "{message}");
    let message = refused("twice", &|folder| {
        for k in 1..=3 {
            copy_part(&part(k), &folder.join(format!("p{k}")));
        }
        copy_part(&part(2), &folder.join("p2-again"));
    });
    assert!(message.contains("shard 2/3 is given twice"), "{message}");
    let message = refused("other-commit", &|folder| {
        for k in 1..=3 {
            copy_part(&part(k), &folder.join(format!("p{k}")));
        }
        edit(&folder.join("p3"), &|part| {
            part["course"]["commit"] = "0123456789abcdef0123456789abcdef01234567".into();
        });
    });
    assert!(
        message.contains("shard 3/3") && message.contains("another course commit"),
        "{message}"
    );
    let message = refused("other-n", &|folder| {
        for k in 1..=3 {
            copy_part(&part(k), &folder.join(format!("p{k}")));
        }
        edit(&folder.join("p3"), &|part| part["shard"]["n"] = 4.into());
    });
    assert!(message.contains("is one of 4 shards"), "{message}");
}

/// `--shard` takes K/N with 1 <= K <= N, and a seed every shard shares.
#[test]
fn a_bad_shard_is_refused_with_the_reason() {
    for (shard, reason) in [
        ("0/3", "shards count from 1"),
        ("4/3", "there are only 3 shards"),
        ("x", "is not a shard"),
        ("1/0", "at least one shard"),
    ] {
        let output = grader(&[
            "somewhere",
            "--class",
            "--gradebook",
            "nowhere",
            "--shard",
            shard,
        ]);
        assert_eq!(output.status.code(), Some(2), "{shard}");
        assert!(
            stderr(&output).contains(reason),
            "{shard}: {}",
            stderr(&output)
        );
    }
    let output = grader(&[
        "somewhere",
        "--class",
        "--gradebook",
        "nowhere",
        "--shard",
        "1/2",
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("--shard needs --seed"),
        "{}",
        stderr(&output)
    );
}

/// A re-grade of an unchanged submission replays its builds from the job
/// cache (under bubblewrap) and gives the same report; a byte changed in a
/// learner file, at the same size and with its times put back, is graded
/// afresh and loses the points its bug costs.
#[test]
fn a_regrade_replays_only_what_is_byte_for_byte_the_same() {
    let _one = one_at_a_time();
    let submission = ordered_tree_copy("replayed", true, None);
    // A work folder of this run's: no entry of an earlier run matches.
    let work = root().join(format!(
        "target/xsafe/grader-cli-replay-{}",
        std::process::id()
    ));
    let grade = || {
        let root = root();
        let output = Command::new(env!("CARGO_BIN_EXE_xsafe-grader"))
            .arg(&submission)
            .args(["--exercise", "ordered-tree", "--format", "json"])
            .args(["--seed", "0x5eed", "--course"])
            .arg(&root)
            .arg("--work-dir")
            .arg(&work)
            .arg("--target-dir")
            .arg(root.join("target/xsafe/build"))
            .env("XSAFE_TIMINGS", "1")
            .output()
            .expect("the grader starts");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let mut report: serde_json::Value =
            serde_json::from_slice(&output.stdout).expect("a JSON report");
        without_timings(&mut report);
        let replayed = stderr(&output)
            .lines()
            .filter(|line| line.trim_start().starts_with("replayed "))
            .count();
        (report, replayed)
    };
    let (first, _) = grade();
    let max = first["max_points"].as_u64().expect("max points");
    assert_eq!(first["points"].as_u64(), Some(max), "{first:#}");
    let (second, replayed) = grade();
    assert_eq!(first, second, "a replayed grade is the same grade");
    let bubblewrap = first["isolation"] == "bubblewrap";
    if bubblewrap {
        assert!(
            replayed == 2,
            "the deciding build (with its expansions and rustdoc) and the no-panic build replay: {replayed}"
        );
    } else {
        assert_eq!(replayed, 0, "without bubblewrap nothing is cached");
    }
    let iter = submission.join("exercises/ordered-tree/src/iter.rs");
    let text = std::fs::read_to_string(&iter).expect("iter.rs");
    let modified = std::fs::metadata(&iter)
        .and_then(|meta| meta.modified())
        .expect("mtime");
    assert!(text.contains("key < start"), "the edit fits iter.rs");
    std::fs::write(&iter, text.replacen("key < start", "key > start", 1)).expect("edit");
    std::fs::File::options()
        .append(true)
        .open(&iter)
        .and_then(|file| file.set_modified(modified))
        .expect("times put back");
    let (edited, _) = grade();
    let points = edited["points"].as_u64().expect("points");
    assert!(
        points < max,
        "a changed byte is graded afresh: {points}/{max}"
    );
    let _ = std::fs::remove_dir_all(&work);
}
