//! `cargo xsafe`: the X-safe Rust learner's command.
//!
//! With no command it watches: it shows the current exercise at once (what
//! to read, what to edit, the step's goal), grades it, and grades it again
//! on every save; keys give hints, the list, a reset, an editor. The other
//! commands list progress, give a hint, grade once, reset an exercise to
//! its starter and open the book; each one that takes an exercise takes
//! the current one by default. Progress comes from the learner files and
//! the grades recorded for them (see `progress`), never from grading
//! everything.
//!
//! Exit codes: 0 success; 1 the command ran and something failed (a grade,
//! mdbook); 2 the command could not run (bad arguments, no course, no
//! terminal, no git).

mod app;
mod book;
mod course;
mod editor;
mod grading;
mod hints;
mod list;
mod progress;
mod reset;
mod screen;
mod term;
mod watch;

use clap::{Parser, Subcommand, ValueEnum};
use course::{Course, Exercise};
use progress::State;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use term::{Look, Paint};

/// The X-safe Rust course: teach the compiler your invariants, exercise by
/// exercise. With no command, watch: show the current exercise and grade it
/// on every save.
#[derive(Debug, Parser)]
#[command(name = "cargo xsafe", bin_name = "cargo xsafe", version, about)]
struct Cli {
    /// The course's root folder (by default, the one this tool was built from).
    #[arg(long, global = true, value_name = "DIR")]
    course: Option<PathBuf>,
    /// Do not watch files (for file systems where watching fails, such as
    /// WSL's Windows drives or network mounts): grade with `r`.
    #[arg(long, global = true)]
    manual_run: bool,
    /// The command that opens a file in your editor (`code`, `vim`,
    /// `subl -w`); the file's path is added last. By default `code` in a VS
    /// Code terminal, else $VISUAL or $EDITOR.
    #[arg(long, global = true, value_name = "CMD", env = "XSAFE_EDITOR")]
    editor: Option<String>,
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Debug, Subcommand)]
enum Commands {
    /// Show the current exercise and grade it on every save (the default).
    Watch,
    /// Every exercise's state and points, without grading; interactive on a
    /// terminal.
    #[command(alias = "status")]
    List,
    /// Show the next hint for the step you are on (one more each time).
    Hint {
        /// The exercise (by default, the current one), such as `ordered-tree`.
        exercise: Option<String>,
    },
    /// Grade once; exit code 0 only if every case passes.
    Check {
        /// The exercise to grade (by default, the current one).
        #[arg(conflicts_with = "all")]
        exercise: Option<String>,
        /// Grade every exercise.
        #[arg(long)]
        all: bool,
        /// How to print the result.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Also run the cases marked `miri` under Miri (where the machine
        /// has it: `rustup component add miri rust-src --toolchain
        /// nightly`) and the cases that build your crate in release mode
        /// (`no-panic`), as the instructor's grader does (slower).
        #[arg(long)]
        full: bool,
    },
    /// Put an exercise's starter back, after backing up your files.
    Reset {
        /// The exercise to reset (by default, the current one).
        exercise: Option<String>,
        /// Do not ask for confirmation (needed when not on a terminal).
        #[arg(long)]
        yes: bool,
    },
    /// Serve the book with mdbook and open the current exercise's chapter.
    Book {
        /// Only build the book into book/book; do not serve it.
        #[arg(long)]
        no_serve: bool,
        /// Do not open a browser.
        #[arg(long)]
        no_open: bool,
        /// Install mdbook into target/tools first if no suitable one is
        /// found (2 to 3 minutes on 2 cores, once), and mdbook-quiz, for
        /// the chapters' quizzes, if target/tools does not have it.
        #[arg(long)]
        install: bool,
    },
}

/// How `check` prints a grade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// For people: steps, the first failing case, what to do.
    Text,
    /// The report model as JSON (the grader's `exercises[]` entries).
    Json,
}

/// The command ran, and what it checked failed.
pub(crate) const FAILED: u8 = 1;
/// The command could not run.
pub(crate) const CANNOT_RUN: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli
        .course
        .clone()
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
    let editor = match editor::Editor::find(cli.editor.as_deref()) {
        Ok(editor) => editor,
        Err(err) => {
            term::error(&err);
            return ExitCode::from(CANNOT_RUN);
        }
    };
    let options = app::Options {
        manual_run: cli.manual_run,
        editor,
    };
    match cli.command.unwrap_or(Commands::Watch) {
        Commands::Watch => interactive(course, options, app::Next::Watch),
        Commands::List if term::interactive() => interactive(course, options, app::Next::List),
        Commands::List => list::plain(&course),
        Commands::Hint { exercise } => match chosen(&course, exercise.as_deref()) {
            Some(index) => hint(&course, index),
            None => ExitCode::from(CANNOT_RUN),
        },
        Commands::Check {
            exercise,
            all,
            format,
            full,
        } => {
            let chosen: Vec<usize> = if all {
                (0..course.exercises.len()).collect()
            } else {
                match chosen(&course, exercise.as_deref()) {
                    Some(index) => vec![index],
                    None => return ExitCode::from(CANNOT_RUN),
                }
            };
            check(&course, &chosen, format, full)
        }
        Commands::Reset { exercise, yes } => match chosen(&course, exercise.as_deref()) {
            Some(index) => reset_command(&course, &course.exercises[index], yes),
            None => ExitCode::from(CANNOT_RUN),
        },
        Commands::Book {
            no_serve,
            no_open,
            install,
        } => book::book(
            &course,
            book::BookOptions {
                serve: !no_serve,
                open: !no_open,
                install,
            },
        ),
    }
}

/// The interactive tool, which needs a terminal.
fn interactive(course: Course, options: app::Options, first: app::Next) -> ExitCode {
    if !term::interactive() {
        term::error("watching needs a terminal (standard input and output are not one)");
        eprintln!(
            "  `cargo xsafe check` grades the current exercise without one, and `cargo xsafe list` lists the exercises."
        );
        return ExitCode::from(CANNOT_RUN);
    }
    app::run(course, options, first)
}

/// The exercise called `name`, or the current one.
fn chosen(course: &Course, name: Option<&str>) -> Option<usize> {
    let Some(name) = name else {
        let state = State::load(course);
        let toolchain = progress::toolchain(&course.root);
        let standings = progress::standings(course, &state, &toolchain);
        return Some(progress::current(course, &state, &standings));
    };
    let found = course.exercises.iter().position(|e| e.name() == name);
    if found.is_none() {
        let names: Vec<&str> = course.exercises.iter().map(Exercise::name).collect();
        term::error(&format!(
            "no exercise `{name}`; the exercises are: {}",
            names.join(", ")
        ));
    }
    found
}

/// `hint`: the next hint for the step of the first failing case. The step
/// comes from the grade recorded for the current files; when there is
/// none and the files changed, the exercise is graded first.
fn hint(course: &Course, index: usize) -> ExitCode {
    let exercise = &course.exercises[index];
    let toolchain = progress::toolchain(&course.root);
    let mut standing = progress::standing(&State::load(course), exercise, &toolchain);
    if standing.recorded.is_none() && standing.stage == progress::Stage::InProgress {
        term::status(
            "Grading",
            &format!("{} to find the step you are on", exercise.name()),
        );
        if let Err(err) = grading::grade(course, index, &toolchain, false).result {
            term::error(&format!("cannot grade {}: {err}", exercise.name()));
            return ExitCode::from(CANNOT_RUN);
        }
        standing = progress::standing(&State::load(course), exercise, &toolchain);
    }
    if standing.stage == progress::Stage::Done {
        println!(
            "{} is done: every case passes. Compare with {}.",
            exercise.name(),
            course::ExerciseInfo::solution_dir(exercise)
        );
        return ExitCode::SUCCESS;
    }
    let step = progress::step_without_grade(exercise, &standing);
    let look = Look::stdout();
    match hints::next(course, exercise, step) {
        Some(hint) => {
            println!(
                "{} ({}):",
                look.paint(Paint::Bold, &hint.title()),
                exercise.name()
            );
            println!("  {}", hint.text);
            if hint.is_last() {
                println!("  {}", hints::Hint::AFTER_LAST);
            }
        }
        None => println!("The {step} step of {} has no hints.", exercise.name()),
    }
    ExitCode::SUCCESS
}

/// `check`: grades, prints each report, and a summary line.
fn check(course: &Course, chosen: &[usize], format: Format, full: bool) -> ExitCode {
    let toolchain = progress::toolchain(&course.root);
    let mut complete = 0;
    let mut reports = Vec::new();
    for &index in chosen {
        let exercise = &course.exercises[index];
        if std::io::stderr().is_terminal() || format == Format::Text {
            term::status("Grading", exercise.name());
        }
        let graded = grading::grade(course, index, &toolchain, full);
        match graded.result {
            Ok(report) => {
                complete += usize::from(report.is_complete());
                if format == Format::Text {
                    let state = State::load(course);
                    let standings = progress::standings(course, &state, &toolchain);
                    let lines = screen::plain_report(
                        Look::stdout(),
                        course,
                        index,
                        &standings,
                        &report,
                        graded.took,
                    );
                    for line in lines {
                        println!("{line}");
                    }
                    println!();
                }
                reports.push(report);
            }
            Err(err) => {
                term::error(&format!("cannot grade {}: {err}", exercise.name()));
                return ExitCode::from(CANNOT_RUN);
            }
        }
    }
    if format == Format::Json {
        match serde_json::to_string_pretty(&reports) {
            Ok(json) => println!("{json}"),
            Err(err) => {
                term::error(&format!("cannot write JSON: {err}"));
                return ExitCode::from(CANNOT_RUN);
            }
        }
    }
    let points: u32 = reports.iter().map(|report| report.points).sum();
    let max: u32 = reports.iter().map(|report| report.max_points).sum();
    let not_complete = chosen.len() - complete;
    let summary = format!(
        "{complete} exercise(s) complete, {not_complete} not complete; {points}/{max} points"
    );
    if not_complete == 0 {
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
            hints::clear(course, exercise);
            term::status("Backed up", &format!("your files to {}", backup.display()));
            term::status(
                "Reset",
                &format!("{} to its starter; its hints start again", exercise.name()),
            );
            ExitCode::SUCCESS
        }
        Err(err) => {
            term::error(&format!("reset failed, nothing lost: {err}"));
            ExitCode::from(FAILED)
        }
    }
}
