//! Drives the real `xsafe` binary on copies of the course, so that the
//! repository itself is never changed: its commands as a script runs them,
//! and its interactive screens in a pseudo-terminal (portable-pty), read
//! back through a terminal emulator (vt100) as a learner would see them.
//!
//! No verdict depends on timing: a test waits for what it expects on the
//! screen, with a generous limit, and fails with the screen it saw. Where a
//! test needs a grade to be still running (the first screen comes before
//! the first grade ends), the grade is held: `RUSTC` is a gate script that
//! answers `--version` at once but waits for a file before answering the
//! engine's first question (`--print=sysroot`), so the grade cannot end
//! until the test opens the gate.
//!
//! Every copy shares one target directory for grading, so only the first
//! grade builds from cold; one test grades at a time (see [`turn`]).

use assert_cmd::Command;
use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use predicates::prelude::*;
use predicates::str::contains;
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// The longest a grade may take: a cold build of the grading workspace on
/// a loaded 2-core machine.
const GRADE: Duration = Duration::from_secs(900);
/// The longest anything else may take to show (a redraw, the first screen).
const SHOW: Duration = Duration::from_secs(60);

/// One grading test at a time: the course copies share a target directory.
static ONE_COURSE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn turn() -> MutexGuard<'static, ()> {
    ONE_COURSE_AT_A_TIME
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repo")
}

fn build_dir() -> PathBuf {
    repo().join("target/xsafe/build")
}

/// The ordered tree's points from its manifest: (total, given, the
/// enforcement step's that need work): the screens' numbers follow the
/// cases.
fn ordered_tree_points() -> (u32, u32, u32) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../exercises/ordered-tree/grading");
    let manifest = xsafe_grade::Manifest::load(&dir).expect("ordered-tree's manifest");
    let enforcement = manifest
        .cases
        .iter()
        .filter(|case| case.step == xsafe_grade::StepName::Enforcement && !case.given)
        .map(|case| case.points)
        .sum();
    (
        manifest.total_points(),
        manifest.given_points(),
        enforcement,
    )
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
        .env("XSAFE_TARGET_DIR", build_dir())
        .env_remove("XSAFE_EDITOR")
        .env_remove("RUSTC")
        .timeout(GRADE);
    command
}

fn apply_solution(course: &Path, exercise: &str) {
    let from = course.join("solutions").join(exercise).join("src");
    let to = course.join("exercises").join(exercise).join("src");
    for entry in std::fs::read_dir(&from).expect("solution src") {
        let entry = entry.expect("entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy solution file");
    }
}

fn break_crate(course: &Path) {
    let lib = course.join("exercises/ordered-tree/src/lib.rs");
    let mut text = std::fs::read_to_string(&lib).expect("lib.rs");
    text.push_str("\nfn broken( {\n");
    std::fs::write(&lib, text).expect("write");
}

/// A gate for grades: `RUSTC` for the tool, which holds the engine's first
/// question (`rustc --print=sysroot`) until [`Gate::open`].
struct Gate {
    script: PathBuf,
    file: PathBuf,
}

impl Gate {
    fn new(course: &Path) -> Gate {
        let script = course.join("target/rustc-gate.sh");
        let file = course.join("target/gate-open");
        std::fs::create_dir_all(course.join("target")).expect("target");
        let _ = std::fs::remove_file(&file);
        // At most ten minutes shut, so that nothing is left waiting.
        let text = format!(
            "#!/bin/sh\nfor arg in \"$@\"; do\n  if [ \"$arg\" = --print=sysroot ]; then\n    n=0\n    while [ ! -e '{}' ] && [ $n -lt 6000 ]; do sleep 0.1; n=$((n+1)); done\n  fi\ndone\nexec rustc \"$@\"\n",
            file.display()
        );
        std::fs::write(&script, text).expect("gate script");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755))
                .expect("chmod");
        }
        Gate { script, file }
    }

    fn open(&self) {
        std::fs::write(&self.file, "").expect("open the gate");
    }
}

impl Drop for Gate {
    fn drop(&mut self) {
        self.open();
    }
}

/// The tool in a pseudo-terminal, its output read into a terminal
/// emulator.
struct Term {
    screen: Arc<Mutex<vt100::Parser>>,
    raw: Arc<Mutex<Vec<u8>>>,
    input: Box<dyn Write + Send>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
}

impl Term {
    fn start(course: &Path, args: &[&str], size: (u16, u16), env: &[(&str, &str)]) -> Term {
        let (rows, cols) = size;
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .expect("a pseudo-terminal");
        let mut command = CommandBuilder::new(assert_cmd::cargo::cargo_bin("xsafe"));
        command.arg("--course");
        command.arg(course);
        command.args(args);
        command.cwd(course);
        command.env("TERM", "xterm-256color");
        command.env("XSAFE_TARGET_DIR", build_dir());
        command.env_remove("XSAFE_EDITOR");
        command.env_remove("VISUAL");
        command.env_remove("EDITOR");
        command.env_remove("TERM_PROGRAM");
        command.env_remove("RUSTC");
        command.env_remove("NO_COLOR");
        for (name, value) in env {
            command.env(name, value);
        }
        let child = pty.slave.spawn_command(command).expect("start xsafe");
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().expect("reader");
        let input = pty.master.take_writer().expect("writer");
        let screen = Arc::new(Mutex::new(vt100::Parser::new(
            NonZeroU16::new(rows).expect("rows"),
            NonZeroU16::new(cols).expect("cols"),
            1000,
        )));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (thread_screen, thread_raw) = (screen.clone(), raw.clone());
        std::thread::spawn(move || {
            // Keeps the master alive as long as the reader runs.
            let _master = pty.master;
            let mut buffer = [0; 8192];
            while let Ok(read) = reader.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                lock(&thread_screen).process(&buffer[..read]);
                lock(&thread_raw).extend_from_slice(&buffer[..read]);
            }
        });
        Term {
            screen,
            raw,
            input,
            child,
        }
    }

    /// The screen's text now.
    fn contents(&self) -> String {
        lock(&self.screen).screen().contents()
    }

    /// Waits until the screen satisfies `ok`; panics with the screen after
    /// `limit`.
    fn wait_until(&self, what: &str, limit: Duration, ok: impl Fn(&str) -> bool) -> String {
        let started = Instant::now();
        loop {
            let contents = self.contents();
            if ok(&contents) {
                return contents;
            }
            assert!(
                started.elapsed() < limit,
                "the screen never showed {what} within {limit:?}; it shows:\n{contents}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until the screen contains `text`.
    fn wait_for(&self, text: &str, limit: Duration) -> String {
        self.wait_until(&format!("{text:?}"), limit, |screen| screen.contains(text))
    }

    /// Waits until the screen shows every one of `texts` at once: a screen
    /// read as soon as its first line is drawn may lack the rest.
    fn wait_for_all(&self, texts: &[&str], limit: Duration) -> String {
        self.wait_until(&format!("all of {texts:?}"), limit, |screen| {
            texts.iter().all(|text| screen.contains(text))
        })
    }

    /// Types `keys`, with no Enter.
    fn keys(&mut self, keys: &str) {
        self.input.write_all(keys.as_bytes()).expect("type");
        self.input.flush().expect("flush");
    }

    /// Whether every row of the screen fits its width (none wrapped).
    fn nothing_wraps(&self) -> bool {
        let parser = lock(&self.screen);
        let screen = parser.screen();
        let (rows, _) = screen.size();
        (0..rows.get()).all(|row| !screen.row_wrapped(row))
    }

    /// Lines that scrolled off the top: a redraw that clears leaves none.
    fn scrolled_off(&self) -> usize {
        lock(&self.screen).screen().scrollback_len()
    }

    /// Waits for the tool to exit and returns its exit code.
    fn exit_code(&mut self, limit: Duration) -> u32 {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.exit_code();
            }
            assert!(
                started.elapsed() < limit,
                "the tool did not exit; the screen shows:\n{}",
                self.contents()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Term {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Warms the shared build directory and the course copy's grade cache for
/// `exercise`, so that later grades take about a second.
fn graded_once(course: &Path, exercise: &str) {
    let _ = xsafe(course).args(["check", exercise]).output();
}

// ---------------------------------------------------------------------
// The interactive tool, in a pseudo-terminal.
// ---------------------------------------------------------------------

/// The first screen is drawn before the first grade ends (the grade is
/// held at its start): the exercise, its chapter as a path and a URL, the
/// learner files as links, the step's goal, and that a grade runs. When
/// the grade is let go, its result replaces the note.
#[test]
fn the_first_screen_comes_before_the_first_grade_ends() {
    let _turn = turn();
    let course = course_copy("first-screen");
    let gate = Gate::new(&course);
    let script = gate.script.to_string_lossy().into_owned();
    let mut term = Term::start(
        &course,
        &[],
        (40, 110),
        &[("RUSTC", &script), ("FORCE_HYPERLINK", "1")],
    );
    let expected = [
        "Grading ordered-tree for the first time",
        "The first grade builds the exercise, its cases and their dependencies",
        "Exercise 1 of 6: An ordered tree (ordered-tree)",
        "Read  book/src/ordered-tree.md",
        "http://localhost:3000/ordered-tree.html",
        "exercises/ordered-tree/",
        "src/tree.rs",
        "Step  enforcement: Make the tree module the only code",
        "Work  src/set.rs:20  and 7 more marked TODO(enforcement), in src/set.rs, src/tree.rs",
        "q quit",
    ];
    let screen = term.wait_for_all(&expected, SHOW);
    assert!(
        !screen.contains("Grade 1 took"),
        "the grade is held, yet it ended:\n{screen}"
    );
    let raw = String::from_utf8_lossy(&lock(&term.raw)).into_owned();
    let tree = course
        .join("exercises/ordered-tree/src/tree.rs")
        .canonicalize()
        .expect("tree.rs");
    assert!(
        raw.contains(&format!("\x1b]8;;file://{}\x1b\\", tree.display())),
        "the learner files are OSC 8 links"
    );

    gate.open();
    let screen = term.wait_for_all(&["Grade 1 took", "✗ enforcement/"], GRADE);
    assert!(!screen.contains("The first grade builds"), "{screen}");
    term.keys("q");
    assert_eq!(term.exit_code(SHOW), 0);
}

/// Keys act at once, without Enter, and are not echoed; each grade and
/// each key redraws the whole screen (nothing piles up or scrolls off),
/// fitted to a narrow terminal (no line wraps); `e` opens the file of the
/// step's first `TODO` in the editor and the screen comes back, `2` the
/// second learner file; `r` grades again.
#[test]
fn single_keys_redraw_a_fitted_screen() {
    let _turn = turn();
    let course = course_copy("keys");
    graded_once(&course, "ordered-tree");
    let editor_log = course.join("target/editor.log");
    let editor = course.join("target/editor.sh");
    std::fs::write(
        &editor,
        format!("#!/bin/sh\necho \"$1\" >> '{}'\n", editor_log.display()),
    )
    .expect("editor script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let editor = editor.to_string_lossy().into_owned();
    let mut term = Term::start(&course, &[], (30, 64), &[("XSAFE_EDITOR", &editor)]);
    term.wait_for("Grade 1 took", GRADE);
    assert!(term.nothing_wraps(), "a line wraps:\n{}", term.contents());

    term.keys("h");
    let screen = term.wait_for("Hint 1 of", SHOW);
    assert!(
        !screen.contains("\nh\n") && !screen.starts_with('h'),
        "{screen}"
    );
    term.keys("r");
    term.wait_for("Grade 2 took", GRADE);
    term.keys("e");
    term.wait_for_all(&["Opened src/set.rs", "Exercise 1 of 6"], SHOW);
    term.keys("2");
    term.wait_for("Opened src/lib.rs", SHOW);
    let opened = std::fs::read_to_string(&editor_log).expect("the editor ran");
    let opened: Vec<&str> = opened.lines().collect();
    assert_eq!(opened.len(), 2, "{opened:?}");
    assert!(
        opened[0].ends_with("exercises/ordered-tree/src/set.rs"),
        "{opened:?}"
    );
    assert!(
        opened[1].ends_with("exercises/ordered-tree/src/lib.rs"),
        "{opened:?}"
    );

    let screen = term.contents();
    assert_eq!(
        screen.matches("Exercise 1 of 6").count(),
        1,
        "one screen, redrawn:\n{screen}"
    );
    assert_eq!(term.scrolled_off(), 0, "nothing scrolled off:\n{screen}");
    assert!(term.nothing_wraps(), "a line wraps:\n{screen}");
    term.keys("q");
    assert_eq!(term.exit_code(SHOW), 0);
}

/// A crate that does not compile is its own state: the compiler's first
/// error, and no step or case blamed. Fixing it brings the steps back.
#[test]
fn a_crate_that_does_not_compile_is_its_own_state() {
    let _turn = turn();
    let course = course_copy("broken");
    graded_once(&course, "ordered-tree");
    let mut term = Term::start(&course, &[], (40, 110), &[]);
    term.wait_for("Grade 1 took", GRADE);
    let lib = course.join("exercises/ordered-tree/src/lib.rs");
    let starter = std::fs::read_to_string(&lib).expect("lib.rs");
    break_crate(&course);
    let screen = term.wait_for_all(
        &["Your crate does not compile", "unclosed delimiter"],
        GRADE,
    );
    assert!(
        screen.contains("--> exercises/ordered-tree/src/lib.rs:"),
        "{screen}"
    );
    assert!(!screen.contains("✗ definition/"), "{screen}");
    assert!(!screen.contains("Step  "), "{screen}");
    assert!(!screen.contains("Work  "), "{screen}");
    assert!(
        screen.contains("not graded: your crate does not compile"),
        "{screen}"
    );

    std::fs::write(&lib, starter).expect("fix");
    let screen = term.wait_until("the steps again", GRADE, |screen| {
        screen.contains("✗ enforcement/") && !screen.contains("does not compile")
    });
    let (_, _, enforcement) = ordered_tree_points();
    assert!(
        screen.contains(&format!("{enforcement} points to go")),
        "{screen}"
    );
    term.keys("q");
    assert_eq!(term.exit_code(SHOW), 0);
}

/// Hints follow the first failing step (enforcement, not the definition
/// the starter gives), say which is the last and then stay there; a reset
/// starts them again. `hint` without a name takes the current exercise.
#[test]
fn hints_follow_the_step_and_reset_clears_them() {
    let _turn = turn();
    let course = course_copy("hints");
    graded_once(&course, "ordered-tree");
    let mut term = Term::start(&course, &[], (40, 110), &[]);
    term.wait_for("Grade 1 took", GRADE);
    term.keys("h");
    term.wait_for("Hint 1 of 4 for the enforcement step", SHOW);
    term.keys("h");
    term.wait_for("Hint 2 of 4 for the enforcement step", SHOW);
    term.keys("hh");
    let screen = term.wait_for("Hint 4 of 4 for the enforcement step", SHOW);
    assert!(
        screen.contains("That was the last hint for this step"),
        "{screen}"
    );
    term.keys("h");
    term.wait_for("Hint 4 of 4", SHOW);

    term.keys("x");
    term.wait_for("y reset to the starter", SHOW);
    term.keys("y");
    term.wait_for("is back to its starter", SHOW);
    term.keys("h");
    term.wait_for("Hint 1 of 4 for the enforcement step", SHOW);
    term.keys("q");
    assert_eq!(term.exit_code(SHOW), 0);

    xsafe(&course)
        .arg("hint")
        .assert()
        .success()
        .stdout(contains(
            "Hint 2 of 4 for the enforcement step (ordered-tree)",
        ));
}

/// `list` answers from the files and the recorded grades, without grading
/// (a grade would wait at the gate): a solved and graded exercise is done,
/// a changed one in progress, the others not started; the current one is
/// marked. It moves with single keys, and "continue here" makes the chosen
/// exercise current and watches it.
#[test]
fn list_shows_states_without_grading_and_continues_here() {
    let _turn = turn();
    let course = course_copy("list");
    apply_solution(&course, "ordered-tree");
    xsafe(&course)
        .args(["check", "ordered-tree"])
        .assert()
        .success();
    let witness = course.join("exercises/witness-types/src/lib.rs");
    let mut text = std::fs::read_to_string(&witness).expect("lib.rs");
    text.push_str("\n// started\n");
    std::fs::write(&witness, text).expect("change");

    let gate = Gate::new(&course);
    let script = gate.script.to_string_lossy().into_owned();
    let mut term = Term::start(&course, &["list"], (30, 110), &[("RUSTC", &script)]);
    let screen = term.wait_for("exercises done", SHOW);
    let row = |name: &str| {
        screen
            .lines()
            .find(|line| line.contains(&format!(" {name} ")))
            .unwrap_or_else(|| panic!("no row for {name}:\n{screen}"))
            .to_owned()
    };
    assert!(row("ordered-tree").contains("done"), "{screen}");
    let (total, _, _) = ordered_tree_points();
    assert!(
        row("ordered-tree").contains(&format!("{total}/{total}")),
        "{screen}"
    );
    assert!(row("witness-types").contains("in progress"), "{screen}");
    assert!(row("send-marker").contains("not started"), "{screen}");
    // The current exercise: the first one not done.
    assert!(row("witness-types").contains('▶'), "{screen}");
    assert!(!row("ordered-tree").contains('▶'), "{screen}");
    assert!(screen.contains("1 of 6 exercises done"), "{screen}");

    term.keys("j");
    term.wait_until("the third row selected", SHOW, |screen| {
        screen
            .lines()
            .any(|line| line.starts_with('>') && line.contains("send-marker "))
    });
    term.keys("\r");
    term.wait_for_all(
        &["Exercise 3 of 6: A Send-like marker", "Grading send-marker"],
        SHOW,
    );
    term.keys("q");
    assert_eq!(term.exit_code(SHOW), 0);
    drop(gate);

    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .arg("--course")
        .arg(&course)
        .arg("list")
        .assert()
        .code(1)
        .stdout(contains("▶  3  send-marker"));
}

/// Finishing an exercise pauses on what was achieved, the reference
/// solution and what to compare, and the chapter's further reading; `n`
/// moves on to the next exercise and names its chapter.
#[test]
fn finishing_an_exercise_pauses_until_n() {
    let _turn = turn();
    let course = course_copy("done");
    graded_once(&course, "ordered-tree");
    let mut term = Term::start(&course, &[], (50, 110), &[]);
    term.wait_for("Grade 1 took", GRADE);
    apply_solution(&course, "ordered-tree");
    let (total, _, _) = ordered_tree_points();
    term.wait_for(
        &format!("ordered-tree is done: {total}/{total} points"),
        GRADE,
    );
    let screen = term.wait_for_all(
        &[
            "What you achieved",
            "✓ enforcement:",
            "solutions/ordered-tree/",
            "git diff --no-index exercises/ordered-tree/src solutions/ordered-tree/src",
            "Further reading, from book/src/ordered-tree.md",
            // Wrapped at the terminal's 110 columns, after "chapter".
            "Press n for the next exercise: Option and panic as a smell (witness-types), chapter",
            "book/src/witness-types.md.",
            "n next exercise",
        ],
        SHOW,
    );
    assert!(screen.contains("Exercise 1 of 6"), "it waits:\n{screen}");
    term.keys("n");
    term.wait_for(
        "Exercise 2 of 6: Option and panic as a smell (witness-types)",
        SHOW,
    );
    term.keys("q");
    assert_eq!(term.exit_code(SHOW), 0);
}

/// With `--manual-run` nothing watches the files: the screen says to
/// press `r`, and `r` grades.
#[test]
fn manual_run_grades_on_r() {
    let _turn = turn();
    let course = course_copy("manual");
    graded_once(&course, "ordered-tree");
    let mut term = Term::start(&course, &["--manual-run"], (40, 110), &[]);
    let screen = term.wait_for_all(&["Grade 1 took", "press r to grade again"], GRADE);
    assert!(!screen.contains("watching exercises/"), "{screen}");
    term.keys("r");
    term.wait_for("Grade 2 took", GRADE);
    term.keys("q");
    assert_eq!(term.exit_code(SHOW), 0);
}

/// Off a terminal, watching refuses with what to use instead.
#[test]
fn watching_needs_a_terminal() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .args(["--course", concat!(env!("CARGO_MANIFEST_DIR"), "/../..")])
        .write_stdin("")
        .assert()
        .code(2)
        .stderr(contains("watching needs a terminal"))
        .stderr(contains("cargo xsafe check"));
}

// ---------------------------------------------------------------------
// The commands, as a script runs them.
// ---------------------------------------------------------------------

/// A fresh course: `check` without a name grades the current exercise; it
/// fails, and the report names the first failing case, what it proves,
/// and the step's goal; the summary line counts points.
#[test]
fn check_grades_the_current_exercise() {
    let _turn = turn();
    let course = course_copy("check");
    let (total, given, _) = ordered_tree_points();
    xsafe(&course)
        .arg("check")
        .assert()
        .code(1)
        .stdout(contains("✗ enforcement/no_node_literal (compile-fail case"))
        .stdout(contains("Proves enforcement"))
        .stdout(contains("Step  enforcement:"))
        .stdout(contains("✓ kept (the starter gives this step)"))
        .stderr(contains(format!(
            "0 exercise(s) complete, 1 not complete; {given}/{total} points"
        )));
    let output = xsafe(&course)
        .args(["check", "--format", "json"])
        .output()
        .expect("check");
    let reports: serde_json::Value =
        serde_json::from_slice(&output.stdout).expect("JSON on stdout");
    assert_eq!(reports[0]["name"], "ordered-tree");
    assert_eq!(reports[0]["cases"][2]["status"], "failed");
    // The long sweeps are left out of a quick grade while other cases
    // fail, and say so; the release-build cases likewise.
    let cases = reports[0]["cases"].as_array().expect("cases");
    let case = |name: &str| {
        cases
            .iter()
            .find(|case| case["name"] == name)
            .unwrap_or_else(|| panic!("no case {name} in {cases:?}"))
    };
    let sweep = case("consumption/steps_cost_the_same_at_every_size");
    assert_eq!(sweep["status"], "not-run", "{sweep}");
    assert!(
        sweep["reason"]
            .as_str()
            .is_some_and(|reason| reason.contains("a quick grade leaves out this long case")),
        "{sweep}"
    );
    assert_eq!(
        case("consumption/min_max_cannot_panic")["status"],
        "not-run"
    );
}

/// A syntax error: `check` says the crate does not compile, with the
/// compiler's error, and blames no case.
#[test]
fn check_reports_a_crate_that_does_not_compile() {
    let _turn = turn();
    let course = course_copy("check-broken");
    break_crate(&course);
    xsafe(&course)
        .args(["check", "ordered-tree"])
        .assert()
        .code(1)
        .stdout(contains("Your crate does not compile"))
        .stdout(contains("unclosed delimiter"))
        .stdout(contains("✗ enforcement").not())
        .stdout(contains("panicked").not());
}

/// With the solution's files in place, `check` passes; `reset` then
/// refuses without `--yes` off a terminal, and with it restores the
/// starter and keeps a backup of the learner's files in the folder it
/// names.
#[test]
fn solution_completes_and_reset_restores_with_a_backup() {
    let _turn = turn();
    let course = course_copy("solved");
    apply_solution(&course, "ordered-tree");
    let (total, _, _) = ordered_tree_points();
    xsafe(&course)
        .args(["check", "ordered-tree"])
        .assert()
        .success()
        .stdout(contains(format!(
            "✓ ordered-tree is done: {total}/{total} points"
        )))
        .stderr(contains(format!(
            "1 exercise(s) complete, 0 not complete; {total}/{total} points"
        )));

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

/// `hint` names an exercise that does not exist as an input error.
#[test]
fn hint_for_an_unknown_exercise_is_refused() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .args(["--course", concat!(env!("CARGO_MANIFEST_DIR"), "/../..")])
        .args(["hint", "no-such"])
        .assert()
        .code(2)
        .stderr(contains("no exercise `no-such`"));
}

/// `book` builds the current exercise's chapter with an mdbook of the
/// right version, without grading anything (a grade would wait at the
/// gate), and names the chapter's page.
#[test]
fn book_opens_the_current_chapter_without_grading() {
    let course = course_copy("book");
    std::fs::create_dir_all(course.join("target/xsafe")).expect("target");
    std::fs::write(
        course.join("target/xsafe/state.json"),
        r#"{ "current": "lock-order" }"#,
    )
    .expect("state");
    let mdbook = course.join("target/mdbook.sh");
    std::fs::write(
        &mdbook,
        "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'mdbook v0.5.4'; exit 0; fi\nmkdir -p \"$2/book\" && echo built > \"$2/book/lock-order.html\"\n",
    )
    .expect("mdbook script");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&mdbook, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
    let gate = Gate::new(&course);
    xsafe(&course)
        .args(["book", "--no-serve", "--no-open"])
        .env("XSAFE_MDBOOK", &mdbook)
        .env("RUSTC", &gate.script)
        .timeout(SHOW)
        .assert()
        .success()
        .stderr(contains("mdbook 0.5.4"))
        .stderr(contains("book/book/lock-order.html"));
}

/// Without mdbook, `book` says how to get it and how long installing
/// takes, and exits with 2 ("could not run"), not with a crash.
#[test]
fn book_without_mdbook_explains() {
    Command::cargo_bin("xsafe")
        .expect("binary is built")
        .args(["book", "--no-serve"])
        .env("XSAFE_MDBOOK", "/nonexistent/mdbook")
        .args(["--course", concat!(env!("CARGO_MANIFEST_DIR"), "/../..")])
        .assert()
        .code(2)
        .stderr(contains("does not run"))
        .stderr(contains("cargo xsafe book --install"))
        .stderr(contains("2 to 3 minutes"));
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

/// Every command has help, and the commands that take an exercise say
/// that it defaults to the current one.
#[test]
fn every_command_has_help() {
    for command in ["watch", "list", "hint", "check", "reset", "book"] {
        let assert = Command::cargo_bin("xsafe")
            .expect("binary is built")
            .args([command, "--help"])
            .assert()
            .success()
            .stdout(contains("Usage: cargo xsafe"));
        if matches!(command, "hint" | "check" | "reset") {
            assert.stdout(contains("current one"));
        }
    }
}
