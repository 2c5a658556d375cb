//! Drives the real `xsafe` binary on copies of the course, so that the
//! repository itself is never changed. Every copy shares one target
//! directory, so only the first grade builds from cold.

use assert_cmd::Command;
use predicates::prelude::*;
use predicates::str::contains;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(600);

/// One grading test at a time: the course copies share a target directory,
/// and cargo gives the same crate in two copies of one workspace the same
/// build hashes, so two copies built at once would overwrite each other.
static ONE_COURSE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    ONE_COURSE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo")
}

/// A copy of the course (without build output and history) in
/// `target/xsafe/test-courses/NAME`, with the files added to a fresh git
/// repository so that its objects hold the starter, as a clone's do.
fn course_copy(name: &str) -> PathBuf {
    let repo = repo();
    let dest = repo.join("target/xsafe/test-courses").join(name);
    if dest.exists() {
        std::fs::remove_dir_all(&dest).expect("remove old copy");
    }
    let built_book = repo.join("book/book");
    let walk = walkdir::WalkDir::new(&repo)
        .into_iter()
        .filter_entry(|entry| {
            let name = entry.file_name().to_string_lossy();
            !matches!(name.as_ref(), "target" | ".git" | ".xsafe-backups")
                && entry.path() != built_book
        });
    for entry in walk {
        let entry = entry.expect("walk");
        let relative = entry.path().strip_prefix(&repo).expect("inside");
        let target = dest.join(relative);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else if entry.file_type().is_file() {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
    for args in [&["init", "-q"][..], &["add", "-A"][..]] {
        let status = std::process::Command::new("git")
            .args(args)
            .current_dir(&dest)
            .status()
            .expect("git");
        assert!(status.success(), "git {args:?}");
    }
    dest
}

fn xsafe(course: &Path) -> Command {
    let mut command = Command::cargo_bin("xsafe").expect("binary is built");
    command
        .arg("--course")
        .arg(course)
        .env("XSAFE_TARGET_DIR", repo().join("target/xsafe/build"))
        .timeout(LIMIT);
    command
}

fn apply_solution(course: &Path) {
    let from = course.join("solutions/ordered-tree/src");
    let to = course.join("exercises/ordered-tree/src");
    for entry in std::fs::read_dir(&from).expect("solution src") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy solution file");
    }
}

/// A fresh course: the first exercise is graded, fails, and the report names
/// the first failing case and what it proves.
#[test]
fn fresh_course_shows_the_first_exercise_failing() {
    let _turn = turn();
    let course = course_copy("fresh");
    xsafe(&course)
        .args(["check", "ordered-tree"])
        .assert()
        .code(1)
        .stdout(contains("First failing case: enforcement/no_node_literal"))
        .stdout(contains("Proves enforcement"))
        .stdout(contains("definition"))
        .stderr(contains("0 exercise(s) complete, 1 not complete"));
}

/// With the solution's files in place, `check` passes and `list` shows the
/// exercise complete with full marks; `reset` then refuses without `--yes`
/// off a terminal, and with it restores the starter and keeps a backup of
/// the learner's files in the folder it names.
#[test]
fn solution_completes_and_reset_restores_with_a_backup() {
    let _turn = turn();
    let course = course_copy("solved");
    apply_solution(&course);
    xsafe(&course)
        .args(["check", "ordered-tree"])
        .assert()
        .success()
        .stdout(contains("`ordered-tree` is complete."));
    xsafe(&course).arg("list").assert().stdout(contains(
        "ordered-tree (An ordered tree): complete, 22/22 points",
    ));

    let tree = course.join("exercises/ordered-tree/src/tree.rs");
    let solved = std::fs::read_to_string(&tree).expect("tree.rs");
    xsafe(&course)
        .args(["reset", "ordered-tree"])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains(
            "refusing to reset ordered-tree without confirmation",
        ));
    assert_eq!(
        std::fs::read_to_string(&tree).expect("tree.rs"),
        solved,
        "a refused reset changes nothing"
    );

    let output = xsafe(&course)
        .args(["reset", "ordered-tree", "--yes"])
        .assert()
        .success();
    let stderr = String::from_utf8_lossy(&output.get_output().stderr).into_owned();
    let starter = std::fs::read_to_string(repo().join("exercises/ordered-tree/src/tree.rs"))
        .expect("starter");
    assert_eq!(
        std::fs::read_to_string(&tree).expect("tree.rs"),
        starter,
        "reset restores the starter"
    );
    let backup = stderr
        .lines()
        .find_map(|line| line.split("your files to ").nth(1))
        .map(|path| PathBuf::from(path.trim()))
        .expect("reset names its backup");
    assert_eq!(
        std::fs::read_to_string(backup.join("src/tree.rs")).expect("backup of tree.rs"),
        solved,
        "the backup holds the learner's files"
    );
}

/// A syntax error is reported as the crate not compiling, with the
/// compiler's error, and not as a crash of the tool.
#[test]
fn a_syntax_error_is_reported_as_such() {
    let _turn = turn();
    let course = course_copy("broken");
    let lib = course.join("exercises/ordered-tree/src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).expect("lib.rs");
    text.push_str("\nfn broken( {\n");
    std::fs::write(&lib, text).expect("write");
    xsafe(&course)
        .args(["check", "ordered-tree"])
        .assert()
        .code(1)
        .stdout(contains("It could not run: the crate does not compile."))
        .stdout(contains("error"))
        .stdout(contains("panicked").not());
}

/// Hints come one at a time, and the count survives between runs.
#[test]
fn hints_come_one_at_a_time() {
    let _turn = turn();
    let course = course_copy("hints");
    xsafe(&course)
        .args(["hint", "ordered-tree"])
        .assert()
        .success()
        .stdout(contains("Hint 1 of"));
    xsafe(&course)
        .args(["hint", "ordered-tree"])
        .assert()
        .success()
        .stdout(contains("Hint 2 of"));
    xsafe(&course)
        .args(["hint", "no-such"])
        .assert()
        .code(2)
        .stderr(contains("no exercise `no-such`"));
}

/// Reads a child's stdout and stderr lines into one channel.
fn lines_of(child: &mut Child) -> Receiver<String> {
    let (sender, receiver) = mpsc::channel();
    let stdout = child.stdout.take().expect("stdout");
    let stderr = child.stderr.take().expect("stderr");
    let out = sender.clone();
    std::thread::spawn(move || {
        BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
            .for_each(|l| drop(out.send(l)))
    });
    std::thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .for_each(|l| drop(sender.send(l)))
    });
    receiver
}

/// Everything a child printed so far, from both streams. Lines from stdout
/// and stderr arrive in no reliable order, so a wait looks at every line
/// since the last action (`mark`), not only at the ones still to come.
struct Output {
    lines: Receiver<String>,
    seen: Vec<String>,
    since: usize,
}

impl Output {
    /// Later waits only look at lines printed from now on.
    fn mark(&mut self) {
        while let Ok(line) = self.lines.try_recv() {
            self.seen.push(line);
        }
        self.since = self.seen.len();
    }

    /// Waits, at most `limit`, for a line containing `text` since the mark.
    fn expect(&mut self, text: &str, limit: Duration) {
        let deadline = Instant::now() + limit;
        loop {
            if self.seen[self.since..]
                .iter()
                .any(|line| line.contains(text))
            {
                return;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!(
                    "no line with {text:?} within {limit:?}; saw:\n{}",
                    self.seen[self.since..].join("\n")
                ),
            }
        }
    }
}

/// Watch mode grades at once, answers `h` and `l`, re-grades after a real
/// save, and quits on `q`, all within bounded time.
#[test]
fn watch_regrades_on_save_and_answers_keys() {
    let _turn = turn();
    let course = course_copy("watch");
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("xsafe"))
        .arg("--course")
        .arg(&course)
        .env("XSAFE_TARGET_DIR", repo().join("target/xsafe/build"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start xsafe");
    let mut output = Output {
        lines: lines_of(&mut child),
        seen: Vec::new(),
        since: 0,
    };
    let mut input = child.stdin.take().expect("stdin");
    output.expect("Graded ordered-tree", LIMIT);
    output.expect("Watching", Duration::from_secs(10));

    output.mark();
    writeln!(input, "h").expect("send h");
    output.expect("Hint 1 of", Duration::from_secs(10));

    output.mark();
    writeln!(input, "l").expect("send l");
    output.expect("Course:", Duration::from_secs(120));

    output.mark();
    apply_solution(&course);
    output.expect(
        "Graded ordered-tree (An ordered tree): 22/22 points",
        Duration::from_secs(300),
    );
    output.expect("`ordered-tree` is complete.", Duration::from_secs(10));

    writeln!(input, "q").expect("send q");
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            // With every exercise complete the loop may end on its own first.
            assert!(status.success(), "watch exits with 0, got {status}");
            break;
        }
        assert!(Instant::now() < deadline, "watch did not quit on q");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Without mdbook, `book` says how to get it and exits with 2 ("could not
/// run"), not with a crash.
#[test]
fn book_without_mdbook_explains() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .args(["book", "--no-serve"])
        .env("XSAFE_MDBOOK", "/nonexistent/mdbook")
        .args(["--course", concat!(env!("CARGO_MANIFEST_DIR"), "/../..")])
        .assert()
        .code(2)
        .stderr(contains("mdbook is not installed"))
        .stderr(contains("cargo xsafe book --install"));
}

/// A folder that is not the course is refused with a clear message.
#[test]
fn not_a_course() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .args(["--course", "/"])
        .assert()
        .code(2)
        .stderr(contains("does not look like the X-safe Rust course"));
}

/// Every command has help.
#[test]
fn every_command_has_help() {
    for command in ["watch", "list", "hint", "check", "reset", "book"] {
        Command::cargo_bin("xsafe")
            .expect("binary is built")
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(contains("Usage: cargo xsafe"));
    }
}
