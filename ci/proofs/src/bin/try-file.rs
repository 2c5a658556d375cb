//! Grades the reference solution of EXERCISE with one file replaced:
//! `cargo run -p xsafe-grading-proofs --bin try-file -- EXERCISE FILE NEWFILE`
//! (FILE relative to the solution's crate, NEWFILE anywhere).
use std::path::Path;
use std::process::ExitCode;
use xsafe_grading_proofs::{Submission, describe, exercises, grade_submission};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [exercise, file, replacement] = args.as_slice() else {
        eprintln!("usage: try-file EXERCISE FILE NEWFILE");
        return ExitCode::from(2);
    };
    let Some(exercise) = exercises().into_iter().find(|e| e.name == *exercise) else {
        eprintln!("error: no exercise `{exercise}`");
        return ExitCode::from(2);
    };
    let text = match std::fs::read_to_string(replacement) {
        Ok(text) => text,
        Err(err) => {
            eprintln!("error: {replacement}: {err}");
            return ExitCode::from(2);
        }
    };
    let grade = grade_submission(
        &exercise,
        Submission::Replaced(Path::new(file), "try-file", &text),
        &None,
    );
    print!("{}", describe(&grade));
    println!(
        "{} with {file} replaced: {}/{} points",
        exercise.name,
        grade.points(),
        grade.manifest.total_points()
    );
    ExitCode::SUCCESS
}
