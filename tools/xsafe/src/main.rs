//! `cargo xsafe`: the X-safe Rust learner's command.
//!
//! With no command it watches: it grades the first exercise that is not
//! complete, shows the result step by step, re-grades on every save and
//! moves on when the exercise is complete. The other commands list progress,
//! give hints, grade without watching, reset an exercise to its starter and
//! serve the book. Progress is never stored: it is whatever grading says.
//!
//! Exit codes: 0 success; 1 the command ran and something failed (a grade,
//! mdbook); 2 the command could not run (bad arguments, no course, no git).

mod course;
mod hints;
mod report;
mod reset;
mod term;
mod watch;

use anstream::println;
use clap::{Parser, Subcommand};
use course::{Course, Exercise};
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use term::Paint;

/// The X-safe Rust course: teach the compiler your invariants, exercise by
/// exercise. With no command, watch: grade the current exercise on every save.
#[derive(Debug, Parser)]
#[command(name = "cargo xsafe", bin_name = "cargo xsafe", version, about)]
struct Cli {
    /// The course's root folder (by default, the one this tool was built from).
    #[arg(long, global = true, value_name = "DIR")]
    course: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Debug, Subcommand)]
enum Commands {
    /// Grade the first incomplete exercise, then again on every save (the default).
    Watch,
    /// Grade every exercise and show each step's state and the course's progress.
    #[command(alias = "status")]
    List,
    /// Show the next hint for an exercise (one more each time you ask).
    Hint {
        /// The exercise, such as `ordered-tree`.
        exercise: String,
    },
    /// Grade without watching; exit code 0 only if every case passes.
    Check {
        /// The exercise to grade.
        #[arg(required_unless_present = "all", conflicts_with = "all")]
        exercise: Option<String>,
        /// Grade every exercise.
        #[arg(long)]
        all: bool,
    },
    /// Put an exercise's starter back, after backing up your files.
    Reset {
        /// The exercise to reset.
        exercise: String,
        /// Do not ask for confirmation (needed when not on a terminal).
        #[arg(long)]
        yes: bool,
    },
    /// Build the book with mdbook and serve it on localhost.
    Book {
        /// Only build the book into book/book; do not serve it.
        #[arg(long)]
        no_serve: bool,
        /// Open the current exercise's chapter in a browser.
        #[arg(long)]
        open: bool,
        /// Install mdbook into target/tools first if it is not found.
        #[arg(long)]
        install: bool,
    },
}

/// The command ran, and what it checked failed.
pub(crate) const FAILED: u8 = 1;
/// The command could not run.
pub(crate) const CANNOT_RUN: u8 = 2;

const MDBOOK_VERSION: &str = "0.5.4";

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli
        .course
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let course = match Course::load(&root) {
        Ok(course) if !course.exercises.is_empty() => course,
        Ok(_) => {
            term::error("the course has no exercises");
            return ExitCode::from(CANNOT_RUN);
        }
        Err(err) => {
            term::error(&format!(
                "this does not look like the X-safe Rust course: {err}"
            ));
            return ExitCode::from(CANNOT_RUN);
        }
    };
    match cli.command.unwrap_or(Commands::Watch) {
        Commands::Watch => watch::watch(&course),
        Commands::List => list(&course),
        Commands::Hint { exercise } => match find(&course, &exercise) {
            Some(exercise) => hint(&course, exercise),
            None => ExitCode::from(CANNOT_RUN),
        },
        Commands::Check { exercise, all } => check(&course, exercise.as_deref(), all),
        Commands::Reset { exercise, yes } => match find(&course, &exercise) {
            Some(exercise) => reset_command(&course, exercise, yes),
            None => ExitCode::from(CANNOT_RUN),
        },
        Commands::Book {
            no_serve,
            open,
            install,
        } => book(&course, !no_serve, open, install),
    }
}

fn find<'a>(course: &'a Course, name: &str) -> Option<&'a Exercise> {
    let found = course.exercise(name);
    if found.is_none() {
        let names: Vec<&str> = course.exercises.iter().map(Exercise::name).collect();
        term::error(&format!(
            "no exercise `{name}`; the exercises are: {}",
            names.join(", ")
        ));
    }
    found
}

/// `list`: every exercise and step, and a progress bar for the course.
pub(crate) fn list(course: &Course) -> ExitCode {
    let mut earned = 0;
    let mut total = 0;
    let mut all_complete = true;
    for (number, exercise) in course.exercises.iter().enumerate() {
        match report::grade(course, exercise) {
            Ok((grade, _)) => {
                let complete = report::is_complete(&grade);
                all_complete &= complete;
                earned += grade.points();
                total += grade.manifest.total_points();
                let state = if complete {
                    Paint::Good.paint("complete")
                } else {
                    Paint::Bad.paint("in progress")
                };
                println!(
                    "{}. {} ({}): {state}, {}/{} points",
                    number + 1,
                    Paint::Bold.paint(exercise.name()),
                    grade.manifest.title,
                    grade.points(),
                    grade.manifest.total_points()
                );
                report::print_steps(&grade);
            }
            Err(err) => {
                all_complete = false;
                total += exercise.manifest.total_points();
                println!("{}. {}: cannot grade: {err}", number + 1, exercise.name());
            }
        }
    }
    let percent = (u64::from(earned) * 100)
        .checked_div(u64::from(total))
        .unwrap_or(0);
    println!(
        "\nCourse: {} {earned}/{total} points ({percent}%)",
        report::bar(earned as usize, total as usize, 30)
    );
    if all_complete {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(FAILED)
    }
}

/// `hint`: the next hint of an exercise.
pub(crate) fn hint(course: &Course, exercise: &Exercise) -> ExitCode {
    match hints::next(course, exercise) {
        Some((number, count, step, text)) => {
            println!(
                "{} {number} of {count} for {} ({step}):\n  {text}",
                Paint::Bold.paint("Hint"),
                exercise.name()
            );
            if number == count {
                println!(
                    "  (That was the last hint; see also the chapter's \"The exercise\" section.)"
                );
            }
            ExitCode::SUCCESS
        }
        None => {
            println!("{} has no hints.", exercise.name());
            ExitCode::SUCCESS
        }
    }
}

fn check(course: &Course, name: Option<&str>, all: bool) -> ExitCode {
    let chosen: Vec<&Exercise> = if all {
        course.exercises.iter().collect()
    } else {
        match name.and_then(|name| find(course, name)) {
            Some(exercise) => vec![exercise],
            None => return ExitCode::from(CANNOT_RUN),
        }
    };
    let mut passed = 0;
    for exercise in &chosen {
        match report::grade(course, exercise) {
            Ok((grade, took)) => {
                report::print_report(exercise, &grade, took);
                passed += usize::from(report::is_complete(&grade));
            }
            Err(err) => {
                term::error(&format!("cannot grade {}: {err}", exercise.name()));
                return ExitCode::from(CANNOT_RUN);
            }
        }
        println!();
    }
    let failed = chosen.len() - passed;
    let summary = format!("{passed} exercise(s) complete, {failed} not complete");
    if failed == 0 {
        term::status("Finished", &summary);
        ExitCode::SUCCESS
    } else {
        term::error(&summary);
        ExitCode::from(FAILED)
    }
}

fn reset_command(course: &Course, exercise: &Exercise, yes: bool) -> ExitCode {
    if !yes {
        if !std::io::stdin().is_terminal() {
            term::error(&format!(
                "refusing to reset {} without confirmation: not on a terminal; pass --yes",
                exercise.name()
            ));
            return ExitCode::from(CANNOT_RUN);
        }
        print!(
            "Reset {} to its starter? Your files are backed up first. [y/N] ",
            exercise.name()
        );
        let _ = std::io::stdout().flush();
        let mut answer = String::new();
        let _ = std::io::stdin().lock().read_line(&mut answer);
        if !matches!(answer.trim(), "y" | "Y" | "yes") {
            println!("Nothing changed.");
            return ExitCode::SUCCESS;
        }
    }
    match reset::reset(course, exercise) {
        Ok(backup) => {
            term::status("Backed up", &format!("your files to {}", backup.display()));
            term::status("Reset", &format!("{} to its starter", exercise.name()));
            ExitCode::SUCCESS
        }
        Err(err) => {
            term::error(&format!("reset failed, nothing lost: {err}"));
            ExitCode::from(FAILED)
        }
    }
}

/// mdbook: `$XSAFE_MDBOOK` if set (and only it), else the copy in
/// target/tools, else the one on the PATH.
fn find_mdbook(root: &Path) -> Option<PathBuf> {
    let candidates = match std::env::var_os("XSAFE_MDBOOK") {
        Some(chosen) => vec![PathBuf::from(chosen)],
        None => vec![
            root.join("target/tools/bin/mdbook"),
            PathBuf::from("mdbook"),
        ],
    };
    candidates.into_iter().find(|candidate| {
        Command::new(candidate)
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    })
}

/// The chapter of the first exercise that is not complete.
fn current_chapter(course: &Course) -> String {
    for exercise in &course.exercises {
        if let Ok((grade, _)) = report::grade(course, exercise)
            && !report::is_complete(&grade)
        {
            return exercise.manifest.chapter.clone();
        }
    }
    course.exercises[0].manifest.chapter.clone()
}

fn book(course: &Course, serve: bool, open: bool, install: bool) -> ExitCode {
    let root = &course.root;
    let mdbook = match find_mdbook(root) {
        Some(mdbook) => mdbook,
        None if install => {
            term::status(
                "Installing",
                &format!("mdbook {MDBOOK_VERSION} into target/tools (a few minutes, once)"),
            );
            let installed =
                Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
                    .args(["install", "--locked", "mdbook", "--version"])
                    .arg(format!("={MDBOOK_VERSION}"))
                    .arg("--root")
                    .arg(root.join("target/tools"))
                    .status();
            if !installed.is_ok_and(|status| status.success()) {
                term::error("could not install mdbook");
                return ExitCode::from(FAILED);
            }
            root.join("target/tools/bin/mdbook")
        }
        None => {
            term::error("mdbook is not installed");
            anstream::eprintln!(
                "  run `cargo xsafe book --install` to install it into target/tools,"
            );
            anstream::eprintln!("  or `cargo install --locked mdbook@{MDBOOK_VERSION}`");
            return ExitCode::from(CANNOT_RUN);
        }
    };
    let book_dir = root.join("book");
    let page = current_chapter(course).replace(".md", ".html");
    let mut command = Command::new(&mdbook);
    if serve {
        term::status(
            "Serving",
            &format!("the book: your chapter is http://localhost:3000/{page} (Ctrl-C to stop)"),
        );
        command.arg("serve");
        if open {
            command.arg("--open");
        }
    } else {
        term::status(
            "Building",
            &format!("the book into {}", book_dir.join("book").display()),
        );
        command.arg("build");
    }
    match command.arg(&book_dir).status() {
        Ok(exit) if exit.success() => {
            if !serve {
                term::status(
                    "Finished",
                    &format!(
                        "your chapter is {}",
                        book_dir.join("book").join(&page).display()
                    ),
                );
            }
            ExitCode::SUCCESS
        }
        Ok(_) => {
            term::error("mdbook failed; its messages are above");
            ExitCode::from(FAILED)
        }
        Err(err) => {
            term::error(&format!("cannot run {}: {err}", mdbook.display()));
            ExitCode::from(CANNOT_RUN)
        }
    }
}
