//! The API mutation pass: the wrong solutions `api_mutants` writes from
//! an exercise's reference solution, each graded as a submission.
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin api-mutants -- EXERCISE... [--sample N] [--write] [--list]
//! ```
//!
//! Every viable mutant must lose points, or be justified in
//! `solutions/NAME/mutants.toml`; the exit status is 1 when one is
//! neither. `--write` puts the counts and survivors in the exercise's
//! `grading/ROUTES.md`; `--sample N` grades only N of each exercise's
//! mutants (evenly spread); `--list` only lists them.

use std::process::ExitCode;
use xsafe_grading_proofs::api_mutants::{
    Outcome, justified, of_exercise, routes_section, sample, with_section,
};
use xsafe_grading_proofs::{Submission, exercises, grade_submission};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().any(|arg| arg == "--write");
    let list = args.iter().any(|arg| arg == "--list");
    let count = args
        .iter()
        .position(|arg| arg == "--sample")
        .and_then(|at| args.get(at + 1))
        .and_then(|count| count.parse().ok())
        .unwrap_or(0);
    let wanted: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(at, arg)| !arg.starts_with("--") && (*at == 0 || args[at - 1] != "--sample"))
        .map(|(_, arg)| arg)
        .collect();
    let mut holes = 0;
    for exercise in exercises() {
        if !wanted.is_empty() && !wanted.contains(&&exercise.name) {
            continue;
        }
        let accepted = match justified(&exercise.solution) {
            Ok(accepted) => accepted,
            Err(err) => {
                eprintln!("error: {err}");
                return ExitCode::from(2);
            }
        };
        let mutants = sample(of_exercise(&exercise.solution), count);
        if list {
            for mutant in &mutants {
                println!("{}  {}", exercise.name, mutant.name);
            }
            continue;
        }
        let mut results = Vec::new();
        let toolchain = None;
        let mut label = String::new();
        for (number, mutant) in mutants.into_iter().enumerate() {
            let grade = grade_submission(
                &exercise,
                Submission::Replaced(&mutant.file, &format!("api{number}"), &mutant.text),
                &toolchain,
            );
            if label.is_empty() {
                label = xsafe_grade::Toolchain::find(&exercise.starter, None)
                    .map(|toolchain| toolchain.version)
                    .unwrap_or_default();
            }
            let outcome = if grade.crate_errors.is_some() {
                Outcome::Unviable
            } else if grade.failing().is_empty() {
                Outcome::Survived
            } else {
                Outcome::Caught(grade.failing())
            };
            match &outcome {
                Outcome::Unviable => println!("unviable  {}", mutant.name),
                Outcome::Caught(by) => println!("caught    {}  by {}", mutant.name, by.join(", ")),
                Outcome::Survived => {
                    let why = accepted.iter().find(|j| j.mutant == mutant.name);
                    match why {
                        Some(why) => println!("justified {}  ({})", mutant.name, why.why),
                        None => {
                            println!("SURVIVED  {}", mutant.name);
                            holes += 1;
                        }
                    }
                }
            }
            results.push((mutant, outcome));
        }
        let viable = results
            .iter()
            .filter(|(_, o)| *o != Outcome::Unviable)
            .count();
        let caught = results
            .iter()
            .filter(|(_, o)| matches!(o, Outcome::Caught(_)))
            .count();
        println!(
            "{}: {} generated, {viable} viable, {caught} caught, {} survived",
            exercise.name,
            results.len(),
            viable - caught
        );
        if write && count == 0 {
            let date = std::process::Command::new("date")
                .arg("+%Y-%m-%d")
                .output()
                .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
                .unwrap_or_default();
            let section = routes_section(&date, &label, &results, &accepted);
            let path = exercise.starter.join("grading/ROUTES.md");
            let routes = std::fs::read_to_string(&path).unwrap_or_default();
            if let Err(err) = std::fs::write(&path, with_section(&routes, &section)) {
                eprintln!("error: {}: {err}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if holes > 0 {
        eprintln!("{holes} mutant(s) survived without a justification");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
