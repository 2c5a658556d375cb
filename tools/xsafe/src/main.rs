//! `cargo xsafe`: the X-safe Rust learner's command.
//!
//! * `cargo xsafe` says where to start: the course's exercises in order, the
//!   chapter to read first, the files to edit and the command that grades
//!   them.
//! * `cargo xsafe book` builds the book with mdbook and serves it locally.

mod course;

use anstream::{eprintln, println};
use anstyle::{AnsiColor, Style};
use clap::{Parser, Subcommand};
use course::Course;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The X-safe Rust course: teach the compiler your invariants.
#[derive(Debug, Parser)]
#[command(name = "cargo xsafe", version, about, long_about = None)]
struct Cli {
    /// The course's root folder (by default, the one this tool was built from).
    #[arg(long, global = true, value_name = "DIR")]
    course: Option<PathBuf>,
    #[command(subcommand)]
    command: Option<Commands>,
}

#[derive(Debug, Subcommand)]
enum Commands {
    /// Show the exercises in order and where to start (the default).
    Start,
    /// Build the book with mdbook and serve it on localhost.
    Book {
        /// Only build the book into book/book; do not serve it.
        #[arg(long)]
        no_serve: bool,
        /// Open the book in a browser once it is served.
        #[arg(long)]
        open: bool,
        /// Install mdbook into target/tools first if it is not found.
        #[arg(long)]
        install: bool,
    },
}

/// Exit codes: 0 done, 1 the command ran and failed, 2 it could not run.
const FAILED: u8 = 1;
const CANNOT_RUN: u8 = 2;

const MDBOOK_VERSION: &str = "0.5.4";

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli
        .course
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.."));
    let course = match Course::load(&root) {
        Ok(course) => course,
        Err(err) => {
            error(&format!(
                "this does not look like the X-safe Rust course: {err}"
            ));
            return ExitCode::from(CANNOT_RUN);
        }
    };
    match cli.command.unwrap_or(Commands::Start) {
        Commands::Start => start(&course),
        Commands::Book {
            no_serve,
            open,
            install,
        } => book(&course, !no_serve, open, install),
    }
}

fn style(color: AnsiColor) -> Style {
    Style::new().bold().fg_color(Some(color.into()))
}

/// A cargo-like status line: a right-aligned green verb, then the message.
fn status(verb: &str, message: &str) {
    let green = style(AnsiColor::Green);
    eprintln!("{green}{verb:>12}{green:#} {message}");
}

fn error(message: &str) {
    let red = style(AnsiColor::Red);
    eprintln!("{red}error{red:#}: {message}");
}

fn start(course: &Course) -> ExitCode {
    let Some(first) = course.exercises.first() else {
        error("the course has no exercises");
        return ExitCode::from(CANNOT_RUN);
    };
    let bold = Style::new().bold();
    println!("{bold}X-safe Rust{bold:#}: make the compiler reject the bugs you care about.\n");
    println!("Exercises, in the order of the book:");
    for (number, exercise) in course.exercises.iter().enumerate() {
        let manifest = &exercise.manifest;
        println!(
            "  {}. {:<16} {} ({} cases, {} points)",
            number + 1,
            manifest.exercise,
            manifest.title,
            manifest.cases.len(),
            manifest.total_points()
        );
    }
    let manifest = &first.manifest;
    let chapter = course.root.join("book/src").join(&manifest.chapter);
    println!("\n{bold}Start with `{}`{bold:#}:", manifest.exercise);
    println!("  1. Read the chapter: {}", chapter.display());
    println!("     (or the whole book in a browser: cargo xsafe book --open)");
    println!(
        "  2. Edit the starter in {}/src; the TODO comments mark the work, step by step.",
        first.dir.display()
    );
    println!("  3. Grade it: cargo test -p {}", manifest.exercise);
    println!("     Each step groups its cases; each failing case says what it proves.");
    println!(
        "     Hints, per step: {}",
        first.dir.join("grading/manifest.toml").display()
    );
    ExitCode::SUCCESS
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

fn book(course: &Course, serve: bool, open: bool, install: bool) -> ExitCode {
    let root = &course.root;
    let mdbook = match find_mdbook(root) {
        Some(mdbook) => mdbook,
        None if install => {
            status(
                "Installing",
                &format!("mdbook {MDBOOK_VERSION} into target/tools (about two minutes)"),
            );
            let installed =
                Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
                    .args(["install", "--locked", "mdbook", "--version"])
                    .arg(format!("={MDBOOK_VERSION}"))
                    .arg("--root")
                    .arg(root.join("target/tools"))
                    .status();
            if !installed.is_ok_and(|status| status.success()) {
                error("could not install mdbook");
                return ExitCode::from(FAILED);
            }
            root.join("target/tools/bin/mdbook")
        }
        None => {
            error("mdbook is not installed");
            eprintln!("  run `cargo xsafe book --install` to install it into target/tools,");
            eprintln!("  or `cargo install --locked mdbook@{MDBOOK_VERSION}`");
            return ExitCode::from(CANNOT_RUN);
        }
    };
    let book_dir = root.join("book");
    let mut command = Command::new(&mdbook);
    if serve {
        status(
            "Serving",
            "the book on http://localhost:3000 (Ctrl-C to stop)",
        );
        command.arg("serve");
        if open {
            command.arg("--open");
        }
    } else {
        status(
            "Building",
            &format!("the book into {}", book_dir.join("book").display()),
        );
        command.arg("build");
    }
    match command.arg(&book_dir).status() {
        Ok(exit) if exit.success() => {
            if !serve {
                status(
                    "Finished",
                    &format!("open {}", book_dir.join("book/index.html").display()),
                );
            }
            ExitCode::SUCCESS
        }
        Ok(_) => {
            error("mdbook failed; its messages are above");
            ExitCode::from(FAILED)
        }
        Err(err) => {
            error(&format!("cannot run {}: {err}", mdbook.display()));
            ExitCode::from(CANNOT_RUN)
        }
    }
}
