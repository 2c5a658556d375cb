//! `cargo xtask`: the course's maintenance tasks.
//!
//! * `cargo xtask templates` writes the files derived from the exercises'
//!   manifests (today: the GitHub Classroom workflow, whose runners and
//!   fallback scores follow the exercises and their points);
//!   `cargo xtask templates --check` exits 1 when a checked-in copy differs
//!   from what it would write, and says which.
//!
//! Exit codes: 0 done (or current), 1 a checked-in file is stale, 2 the
//! course could not be read or a file could not be written.

mod templates;

use anstream::{eprintln, println};
use anstyle::{AnsiColor, Style};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(about = "The X-safe Rust course's maintenance tasks.")]
struct Cli {
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
    match cli.task {
        Task::Templates { check } => run_templates(&course_root(), check),
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
