//! The mutation pass: every mutant cargo-mutants makes of an exercise's
//! reference solution, graded as a submission, and sorted into caught (some
//! case fails), unviable (it does not compile) and survived (full marks).
//! A survivor is either harmless (it changes nothing the exercise promises)
//! or a hole in the grading: the note on the exercise says which.
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin mutants -- EXERCISE [TEXT]
//! ```
//!
//! `TEXT` keeps only the mutants whose name contains it. Needs
//! `cargo install --locked cargo-mutants`.

use serde_json::Value;
use std::path::Path;
use std::process::{Command, ExitCode};
use xsafe_grading_proofs::{Submission, course_root, exercise_named, grade_submission};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(name) = args.first() else {
        eprintln!("usage: mutants EXERCISE [TEXT]");
        return ExitCode::from(2);
    };
    let filter = args.get(1).cloned().unwrap_or_default();
    let exercise = match exercise_named(name) {
        Ok(exercise) => exercise,
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    // cargo-mutants lists the mutants of the solution's sources: its own
    // package, and the packages inside it (a learner's macro crate, such
    // as send-marker's derive), which `--dir` alone leaves out.
    let mut packages = vec![exercise.solution.clone()];
    if let Ok(entries) = std::fs::read_dir(&exercise.solution) {
        let mut inner: Vec<_> = entries
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| path.join("Cargo.toml").is_file())
            .collect();
        inner.sort();
        packages.extend(inner);
    }
    let mut mutants: Vec<Value> = Vec::new();
    for package in &packages {
        let listing = match Command::new("cargo")
            .args(["mutants", "--list", "--json", "--dir"])
            .arg(package)
            .output()
        {
            Ok(output) if output.status.success() => output.stdout,
            Ok(output) => {
                eprintln!(
                    "error: cargo mutants failed: {}",
                    String::from_utf8_lossy(&output.stderr)
                );
                return ExitCode::from(2);
            }
            Err(err) => {
                eprintln!(
                    "error: cannot run cargo mutants ({err}): cargo install --locked cargo-mutants"
                );
                return ExitCode::from(2);
            }
        };
        match serde_json::from_slice::<Vec<Value>>(&listing) {
            Ok(listed) => mutants.extend(listed),
            Err(err) => {
                eprintln!("error: cargo mutants' listing is not JSON: {err}");
                return ExitCode::from(2);
            }
        }
    }
    let root = course_root();
    let (mut caught, mut unviable, mut survived) = (0, 0, Vec::new());
    for (number, mutant) in mutants.iter().enumerate() {
        let name = mutant["name"].as_str().unwrap_or("?");
        if !name.contains(&filter) {
            continue;
        }
        // cargo-mutants names files from the workspace's root.
        let file = root.join(mutant["file"].as_str().unwrap_or(""));
        let Ok(in_crate) = file.strip_prefix(&exercise.solution) else {
            eprintln!("skipped (not in the solution): {name}");
            continue;
        };
        let Some(text) = mutated(&file, mutant) else {
            eprintln!("skipped (cannot apply): {name}");
            continue;
        };
        let grade = grade_submission(
            &exercise,
            Submission::Replaced(in_crate, &format!("{number}"), &text),
            &None,
        );
        let failing = grade.failing();
        if grade.crate_errors.is_some() {
            unviable += 1;
        } else if failing.is_empty() {
            println!("SURVIVED  {name}");
            survived.push(name.to_owned());
        } else {
            caught += 1;
            println!("caught    {name}  by {}", failing.join(", "));
        }
    }
    println!(
        "\n{}: {caught} caught, {unviable} unviable (do not compile), {} survived",
        exercise.name,
        survived.len()
    );
    for name in &survived {
        println!("  survived: {name}");
    }
    ExitCode::SUCCESS
}

/// The file with the mutant's span replaced by its replacement (lines and
/// columns 1-based, columns counted in characters).
fn mutated(path: &Path, mutant: &Value) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let span = &mutant["span"];
    let at = |point: &Value| -> Option<usize> {
        let line = point["line"].as_u64()? as usize;
        let column = point["column"].as_u64()? as usize;
        let line_start: usize = text
            .split_inclusive('\n')
            .take(line.checked_sub(1)?)
            .map(str::len)
            .sum();
        let rest = &text[line_start..];
        Some(
            line_start
                + rest
                    .char_indices()
                    .nth(column.checked_sub(1)?)
                    .map_or(rest.len(), |(index, _)| index),
        )
    };
    let (start, end) = (at(&span["start"])?, at(&span["end"])?);
    let replacement = mutant["replacement"].as_str()?;
    let mut out = text.clone();
    out.replace_range(start..end, replacement);
    Some(out)
}
