//! Grades one submission of one exercise the same way many times (one
//! seed, the named cases only) and says whether every run gave the same
//! verdicts: the check that a case's verdict does not depend on timing,
//! run while something else loads the machine.
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin repeat -- EXERCISE SUBMISSION TOOLCHAIN RUNS SEED CASE...
//! ```
//!
//! SUBMISSION is `solution`, `starter` or a variant's name; TOOLCHAIN is
//! as rustup names it (`1.95.0`, `nightly`); SEED is hexadecimal
//! (`0x1234`). It prints a line per run (each case's verdict, its reason's
//! first words), then a summary, and exits with 1 when the runs disagree.

use std::collections::BTreeMap;
use std::process::ExitCode;
use xsafe_grade::Status;
use xsafe_grading_proofs::{Submission, exercise_named, grade_submission_with};

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::from(2)
        }
    }
}

/// The runs, printed, and whether their verdicts agree; or the message
/// for a command line that does not say what to grade.
fn run() -> Result<ExitCode, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, which, toolchain, runs, seed, cases @ ..] = args.as_slice() else {
        return Err("usage: repeat EXERCISE SUBMISSION TOOLCHAIN RUNS SEED CASE...".to_owned());
    };
    let exercise = exercise_named(name)?;
    let runs: usize = runs
        .parse()
        .map_err(|_| format!("error: RUNS must be a number, not `{runs}`"))?;
    let seed = u64::from_str_radix(seed.trim_start_matches("0x"), 16)
        .map_err(|_| format!("error: SEED must be hexadecimal, not `{seed}`"))?;
    let variants = exercise.variants();
    let submission = Submission::named(which, &exercise, &variants)?;
    let toolchain = Some(toolchain.clone());
    // Each distinct line of verdicts, and in how many runs it came.
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    for run in 1..=runs {
        let started = std::time::Instant::now();
        let grade = grade_submission_with(
            &exercise,
            submission,
            &toolchain,
            Some(seed),
            cases.to_vec(),
        );
        let verdicts: Vec<String> = grade
            .outcomes
            .iter()
            .map(|(case, outcome)| {
                let verdict = match &outcome.status {
                    Status::Passed => "passed".to_owned(),
                    Status::Failed(reason) => format!("failed: {}", first_words(reason)),
                    Status::NotRun(reason) => format!("not run: {}", first_words(reason)),
                    Status::Stopped(reason) => format!("stopped: {}", first_words(reason)),
                };
                format!("{} {verdict}", case.name())
            })
            .collect();
        let line = verdicts.join("; ");
        println!(
            "run {run:>2} ({:.1} s): {line}",
            started.elapsed().as_secs_f64()
        );
        *seen.entry(line).or_default() += 1;
    }
    println!(
        "{name} {which} with seed {seed:#x}: {} distinct verdict(s) in {runs} run(s)",
        seen.len()
    );
    if seen.len() == 1 {
        Ok(ExitCode::SUCCESS)
    } else {
        for (line, count) in &seen {
            println!("  {count} x {line}");
        }
        Ok(ExitCode::from(1))
    }
}

/// The first words of a reason: enough to tell verdicts apart, without
/// the values a seed draws.
fn first_words(reason: &str) -> String {
    reason
        .split_whitespace()
        .take(6)
        .collect::<Vec<_>>()
        .join(" ")
}
