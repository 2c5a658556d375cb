//! Grades one submission of one exercise and prints every case's outcome
//! with its details: the quick loop while writing cases and variants.
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin try -- EXERCISE [starter|solution|VARIANT] [TOOLCHAIN]
//! ```

use std::process::ExitCode;
use xsafe_grading_proofs::{Submission, describe, exercises, grade_submission};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: try EXERCISE [starter|solution|VARIANT] [TOOLCHAIN]");
        return ExitCode::from(2);
    };
    let Some(exercise) = exercises()
        .into_iter()
        .find(|exercise| exercise.name == *name)
    else {
        eprintln!("error: no exercise `{name}`");
        return ExitCode::from(2);
    };
    let variants = exercise.variants();
    let which = args.get(1).map_or("solution", String::as_str);
    let submission = match which {
        "starter" => Submission::Starter,
        "solution" => Submission::Solution,
        name => match variants.iter().find(|variant| variant.name == name) {
            Some(variant) => Submission::Variant(variant),
            None => {
                eprintln!("error: {} has no variant `{name}`", exercise.name);
                return ExitCode::from(2);
            }
        },
    };
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
    ExitCode::SUCCESS
}
