//! The equivalence pass: the correct rewrites `equivalents` writes from
//! an exercise's reference solution, each graded as a submission.
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin equivalents -- [EXERCISE...] [--sample N] [--only TEXT] [--list] [--write] [--toolchain NAME]
//! ```
//!
//! Every viable rewrite must score full marks; the exit status is 1 when
//! one loses marks (a false failure of the grading: the cases that failed
//! and the grade's details are printed). A rewrite that does not compile
//! is unviable: a wrong operator, reported apart. `--write` puts the
//! counts in the exercise's `grading/ROUTES.md`; `--sample N` grades only
//! N of each exercise's rewrites (evenly spread); `--list` only lists
//! them (`--dump DIR` also writes each one's files under
//! `DIR/EXERCISE/NUMBER/`, to read or diff); `--only TEXT` keeps the
//! rewrites whose name holds `TEXT` (to re-grade one after a fix; not with
//! `--write`). Progress goes to stderr.

use std::process::ExitCode;
use std::time::Instant;
use xsafe_grading_proofs::equivalents::{
    Outcome, of_exercise, routes_section, sample, with_section,
};
use xsafe_grading_proofs::{Submission, describe, exercises, grade_submission, toolchain_label};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args.iter().any(|arg| arg == "--write");
    let list = args.iter().any(|arg| arg == "--list");
    let value = |flag: &str| {
        args.iter()
            .position(|arg| arg == flag)
            .and_then(|at| args.get(at + 1))
    };
    let count = value("--sample")
        .and_then(|count| count.parse().ok())
        .unwrap_or(0);
    let toolchain: Option<String> = value("--toolchain").cloned();
    let dump = value("--dump");
    let only = value("--only");
    if only.is_some() && write {
        eprintln!("error: --only grades part of a pass: it cannot --write the pass's counts");
        return ExitCode::from(2);
    }
    let wanted: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(at, arg)| {
            !arg.starts_with("--")
                && (*at == 0
                    || !["--sample", "--toolchain", "--dump", "--only"]
                        .contains(&args[at - 1].as_str()))
        })
        .map(|(_, arg)| arg)
        .collect();
    let started = Instant::now();
    let mut false_failures = 0;
    let mut unviable = 0;
    for exercise in exercises() {
        if !wanted.is_empty() && !wanted.contains(&&exercise.name) {
            continue;
        }
        let rewrites = match of_exercise(&exercise.starter, &exercise.solution) {
            Ok(rewrites) => sample(
                rewrites
                    .into_iter()
                    .filter(|rewrite| only.is_none_or(|only| rewrite.name.contains(only.as_str())))
                    .collect(),
                count,
            ),
            Err(err) => {
                eprintln!("error: {err}");
                return ExitCode::from(2);
            }
        };
        if list || dump.is_some() {
            for (number, rewrite) in rewrites.iter().enumerate() {
                println!("{}  {number}  {}", exercise.name, rewrite.name);
                if let Some(dump) = dump {
                    let dir = std::path::Path::new(dump)
                        .join(&exercise.name)
                        .join(number.to_string());
                    for (file, text) in &rewrite.files {
                        let path = dir.join(file);
                        let written = path
                            .parent()
                            .map_or(Ok(()), std::fs::create_dir_all)
                            .and_then(|()| std::fs::write(&path, text));
                        if let Err(err) = written {
                            eprintln!("error: {}: {err}", path.display());
                            return ExitCode::from(2);
                        }
                    }
                }
            }
            continue;
        }
        let exercise_started = Instant::now();
        let mut results = Vec::new();
        let total = rewrites.len();
        let mut label = String::new();
        for (number, rewrite) in rewrites.into_iter().enumerate() {
            eprint!(
                "[{}/{total}] {} {} ... ",
                number + 1,
                exercise.name,
                rewrite.name
            );
            let graded = Instant::now();
            let grade = grade_submission(
                &exercise,
                Submission::Rewritten(&format!("eq{number}"), &rewrite.files),
                &toolchain,
            );
            if label.is_empty() {
                label = xsafe_grade::Toolchain::find(&exercise.starter, toolchain.as_deref())
                    .map(|found| found.version)
                    .unwrap_or_else(|_| toolchain_label(&toolchain));
            }
            let outcome = if grade.crate_errors.is_some() {
                Outcome::Unviable
            } else if grade.failing().is_empty() {
                Outcome::FullMarks
            } else {
                Outcome::FalseFailure(grade.failing())
            };
            let seconds = graded.elapsed().as_secs_f64();
            match &outcome {
                Outcome::FullMarks => {
                    eprintln!("ok ({seconds:.1} s)");
                    println!("full marks     {}", rewrite.name);
                }
                Outcome::Unviable => {
                    eprintln!("UNVIABLE ({seconds:.1} s)");
                    println!("UNVIABLE       {}\n{}", rewrite.name, describe(&grade));
                    unviable += 1;
                }
                Outcome::FalseFailure(cases) => {
                    eprintln!("FALSE FAILURE ({seconds:.1} s)");
                    println!(
                        "FALSE FAILURE  {}  fails {}\n{}",
                        rewrite.name,
                        cases.join(", "),
                        describe(&grade)
                    );
                    false_failures += 1;
                }
            }
            results.push((rewrite, outcome));
        }
        let viable = results
            .iter()
            .filter(|(_, outcome)| *outcome != Outcome::Unviable)
            .count();
        let failing = results
            .iter()
            .filter(|(_, outcome)| matches!(outcome, Outcome::FalseFailure(_)))
            .count();
        let elapsed = exercise_started.elapsed();
        println!(
            "{}: {} generated, {viable} viable, {} full marks, {failing} false failures ({:.0} s)",
            exercise.name,
            results.len(),
            viable - failing,
            elapsed.as_secs_f64()
        );
        if write && count == 0 {
            let date = std::process::Command::new("date")
                .arg("+%Y-%m-%d")
                .output()
                .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned())
                .unwrap_or_default();
            let section = routes_section(&date, &label, elapsed, &results);
            let path = exercise.starter.join("grading/ROUTES.md");
            let routes = std::fs::read_to_string(&path).unwrap_or_default();
            if let Err(err) = std::fs::write(&path, with_section(&routes, &section)) {
                eprintln!("error: {}: {err}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    if !list && dump.is_none() {
        eprintln!(
            "equivalence pass: {false_failures} false failure(s), {unviable} unviable rewrite(s), in {:.0} s",
            started.elapsed().as_secs_f64()
        );
    }
    if false_failures > 0 {
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
