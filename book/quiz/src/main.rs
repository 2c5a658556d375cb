//! `xsafe-book-quiz check` checks the book's quiz answers against the
//! compiler (what `ci/test.sh` runs); `xsafe-book-quiz preprocess` is the
//! book's quiz preprocessor (what `book/book.toml` runs). Called as
//! `rustc`, it is the compiler that mdbook-quiz's validator sees (see the
//! `shim` module).
//!
//! Exit status: 0 when every answer agrees with the compiler, 1 when one
//! does not (each is named), 2 when the check cannot run.

use std::path::PathBuf;
use std::process::ExitCode;
use xsafe_book_quiz::{Options, check, course_root, preprocess, shim};

const USAGE: &str = "usage: xsafe-book-quiz check [--quizzes DIR] [--work DIR]\n       xsafe-book-quiz preprocess [supports RENDERER]";

fn main() -> ExitCode {
    let mut args = std::env::args_os();
    let called = args.next().map(PathBuf::from).and_then(|path| {
        path.file_stem()
            .map(|stem| stem.to_string_lossy().into_owned())
    });
    if called.as_deref() == Some("rustc") {
        return shim::rustc(args.collect());
    }
    let args: Vec<String> = args.map(|arg| arg.to_string_lossy().into_owned()).collect();
    let root = course_root();
    match args.first().map(String::as_str) {
        Some("check") => check_command(&root, &args[1..]),
        Some("preprocess") => preprocess::run(&root, &args[1..]),
        _ => {
            eprintln!("{USAGE}");
            ExitCode::from(2)
        }
    }
}

fn check_command(root: &std::path::Path, args: &[String]) -> ExitCode {
    let mut options = Options::course(root);
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match (arg.as_str(), args.next()) {
            ("--quizzes", Some(dir)) => {
                options.quizzes = PathBuf::from(dir);
                options.chapters = false;
            }
            ("--work", Some(dir)) => options.work = PathBuf::from(dir),
            _ => {
                eprintln!("{USAGE}");
                return ExitCode::from(2);
            }
        }
    }
    let checked = match check(root, &options) {
        Ok(checked) => checked,
        Err(why) => {
            eprintln!("error: cannot check the quizzes: {why}");
            return ExitCode::from(2);
        }
    };
    let width = checked
        .quizzes
        .iter()
        .map(|quiz| quiz.name.len())
        .max()
        .unwrap_or(0);
    for quiz in &checked.quizzes {
        let included = if quiz.included_by.is_empty() {
            "included by no chapter yet".to_owned()
        } else {
            format!("in {}", quiz.included_by.join(", "))
        };
        println!(
            "{:>width$}  {} questions: {} programs the compiler rejects, {} that compile and run; {included}",
            quiz.name, quiz.questions, quiz.rejected, quiz.compiled
        );
    }
    let questions: usize = checked.quizzes.iter().map(|quiz| quiz.questions).sum();
    let programs: usize = checked
        .quizzes
        .iter()
        .map(|quiz| quiz.rejected + quiz.compiled)
        .sum();
    let timing = format!(
        "{:.1} s (one cargo build {:.1} s, judging and running the programs {:.1} s), {}",
        checked.total_time.as_secs_f64(),
        checked.build_time.as_secs_f64(),
        checked.judge_time.as_secs_f64(),
        checked.toolchain
    );
    if checked.problems.is_empty() {
        println!(
            "{} quizzes, {questions} questions, {programs} programs: every answer agrees with the compiler; {timing}",
            checked.quizzes.len()
        );
        ExitCode::SUCCESS
    } else {
        for problem in &checked.problems {
            println!("{problem}");
        }
        println!(
            "{} problems in {} quizzes; {timing}",
            checked.problems.len(),
            checked.quizzes.len()
        );
        ExitCode::from(1)
    }
}
