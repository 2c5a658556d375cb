//! Grades one submission of one exercise and prints every case's outcome
//! with its details: the quick loop while writing cases and variants.
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin try -- EXERCISE [starter|solution|VARIANT] [TOOLCHAIN]
//! ```

use std::process::ExitCode;
use xsafe_grading_proofs::{Submission, describe, exercise_named, grade_submission};

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

/// The grade, printed; or the message for a command line that names no
/// exercise or submission.
fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let name = args
        .first()
        .ok_or("usage: try EXERCISE [starter|solution|VARIANT] [TOOLCHAIN]")?;
    let exercise = exercise_named(name)?;
    let variants = exercise.variants();
    let which = args.get(1).map_or("solution", String::as_str);
    let submission = Submission::named(which, &exercise, &variants)?;
    let toolchain = args.get(2).cloned();
    let started = std::time::Instant::now();
    let grade = grade_submission(&exercise, submission, &toolchain);
    print!("{}", describe(&grade));
    println!(
        "{} {}: {}/{} points in {:.1}s",
        exercise.name,
        which,
        grade.points(),
        grade.manifest.total_points(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}
