//! `cargo xtask`: the course's maintenance tasks.
//!
//! * `cargo xtask templates` writes the files derived from the exercises'
//!   manifests (today: the GitHub Classroom workflow, whose runners and
//!   fallback scores follow the exercises and their points);
//!   `cargo xtask templates --check` exits 1 when a checked-in copy differs
//!   from what it would write, and says which.
//!
//! * `cargo xtask new-chapter NAME [--title "..."]` scaffolds a chapter
//!   (book page, starter, manifest with one case per step, solution,
//!   variants), registers it wherever the course lists chapters, and
//!   regenerates the templates;
//! * `cargo xtask check` says, one line each, what any chapter is missing.
//!
//! Exit codes: 0 done (or current, or complete), 1 a checked-in file is
//! stale or a chapter incomplete, 2 the course could not be read, a file
//! could not be written, or `new-chapter` refused the name.

mod check;
mod scaffold;
mod templates;

use anstream::{eprintln, println};
use anstyle::{AnsiColor, Style};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(about = "The X-safe Rust course's maintenance tasks.")]
struct Cli {
    /// The course's root folder (default: the course this tool is part of).
    #[arg(long, global = true, value_name = "DIR")]
    course: Option<PathBuf>,
    #[command(subcommand)]
    task: Task,
}

#[derive(Debug, Subcommand)]
enum Task {
    /// Write the files derived from the manifests (the Classroom workflow).
    Templates {
        /// Write nothing; exit 1 if a checked-in file differs from what
        /// would be written.
        #[arg(long)]
        check: bool,
    },
    /// Scaffold a chapter and register it: book page, starter, grading
    /// manifest and cases, solution and variants.
    NewChapter {
        /// The chapter's name: its crate, its folders and its page
        /// (lowercase letters, digits, `-` and `_`).
        name: String,
        /// The chapter's title (default: made from the name).
        #[arg(long)]
        title: Option<String>,
    },
    /// Say what any chapter is missing, one line each; exit 1 if anything.
    Check,
}

const GOOD: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Green)));
const BAD: Style = Style::new()
    .bold()
    .fg_color(Some(anstyle::Color::Ansi(AnsiColor::Red)));

fn course_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = cli.course.unwrap_or_else(course_root);
    match cli.task {
        Task::Templates { check } => run_templates(&root, check),
        Task::NewChapter { name, title } => run_new_chapter(&root, &name, title.as_deref()),
        Task::Check => run_check(&root),
    }
}

fn run_new_chapter(root: &Path, name: &str, title: Option<&str>) -> ExitCode {
    let made = match scaffold::new_chapter(root, name, title) {
        Ok(made) => made,
        Err(refusal) => {
            eprintln!("{BAD}error{BAD:#}: {refusal}");
            return ExitCode::from(2);
        }
    };
    for path in &made.written {
        println!("{GOOD}{:>12}{GOOD:#} {}", "Created", path.display());
    }
    for path in &made.registered {
        println!("{GOOD}{:>12}{GOOD:#} {}", "Registered", path.display());
    }
    let templates = run_templates(root, false);
    if templates != ExitCode::SUCCESS {
        return templates;
    }
    println!(
        "{GOOD}{:>12}{GOOD:#} chapter `{name}`: replace the placeholder (an even number) in the files above, then run `cargo xtask check` and `bash ci/test.sh`",
        "Done"
    );
    ExitCode::SUCCESS
}

fn run_check(root: &Path) -> ExitCode {
    let problems = check::check(root, true);
    for problem in &problems {
        println!("{BAD}{:>12}{BAD:#} {problem}", "Missing");
    }
    if problems.is_empty() {
        println!(
            "{GOOD}{:>12}{GOOD:#} every chapter is complete and consistent",
            "Checked"
        );
        ExitCode::SUCCESS
    } else {
        println!(
            "{BAD}{:>12}{BAD:#} {} problem(s)",
            "Incomplete",
            problems.len()
        );
        ExitCode::from(1)
    }
}

fn run_templates(root: &Path, check: bool) -> ExitCode {
    let files = match templates::generate(root) {
        Ok(files) => files,
        Err(message) => {
            eprintln!("{BAD}error{BAD:#}: {message}");
            return ExitCode::from(2);
        }
    };
    let mut stale = 0;
    for file in &files {
        let path = root.join(&file.path);
        let current = std::fs::read_to_string(&path).ok();
        if current.as_deref() == Some(file.text.as_str()) {
            println!("{GOOD}{:>12}{GOOD:#} {}", "Current", file.path.display());
            continue;
        }
        if check {
            stale += 1;
            println!(
                "{BAD}{:>12}{BAD:#} {} (run `cargo xtask templates`)",
                "Stale",
                file.path.display()
            );
            continue;
        }
        if let Err(err) = std::fs::write(&path, &file.text) {
            eprintln!("{BAD}error{BAD:#}: cannot write {}: {err}", path.display());
            return ExitCode::from(2);
        }
        println!("{GOOD}{:>12}{GOOD:#} {}", "Wrote", file.path.display());
    }
    if stale > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
