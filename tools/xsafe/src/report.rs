//! Grading an exercise for the learner, and showing the result the way a
//! learner needs it: per step, the first failing case, what it proves, the
//! trimmed output that explains it, and what to do next.

use crate::course::{Course, CourseDirs, Exercise};
use crate::term::{self, Paint};
use anstream::println;
use indicatif::{ProgressBar, ProgressStyle};
use std::time::{Duration, Instant};
use xsafe_grade::{Case, CaseOutcome, Expect, Grade, GradeError, GradeRequest, Status, StepName};

/// How many lines of compiler or test output to show for a failing case.
const SHOWN_LINES: usize = 30;

/// Grades one exercise in place, with a spinner on a terminal.
pub fn grade(course: &Course, exercise: &Exercise) -> Result<(Grade, Duration), GradeError> {
    let spinner = ProgressBar::new_spinner();
    spinner.set_style(
        ProgressStyle::with_template("{spinner:.green} {msg} ({elapsed})")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    spinner.set_message(format!("Grading {}", exercise.name()));
    spinner.enable_steady_tick(Duration::from_millis(120));
    let started = Instant::now();
    let request = GradeRequest {
        crate_dir: exercise.dir.clone(),
        work_dir: course.work_dir().join("work").join(exercise.name()),
        target_dir: course.build_dir(),
        lockfile: Some(course.root.join("Cargo.lock")),
        limits: xsafe_grade::Limits::default(),
        seed: None,
        only: Vec::new(),
        toolchain: None,
        show_paths: Vec::new(),
    };
    let grade = xsafe_grade::grade(&request);
    spinner.finish_and_clear();
    grade.map(|grade| (grade, started.elapsed()))
}

/// Whether every case passes.
pub fn is_complete(grade: &Grade) -> bool {
    grade.failing().is_empty()
}

/// The steps' states: cases passed and cases in all, per step.
pub fn step_counts(grade: &Grade, step: StepName) -> (usize, usize) {
    grade
        .outcomes
        .iter()
        .filter(|(case, _)| case.step == step)
        .fold((0, 0), |(passed, total), (_, outcome)| {
            (passed + usize::from(outcome.status.is_pass()), total + 1)
        })
}

/// A bar of `width` cells, `done` of `total` filled.
pub fn bar(done: usize, total: usize, width: usize) -> String {
    let filled = (done * width).checked_div(total).unwrap_or(width);
    format!("{}{}", "█".repeat(filled), "░".repeat(width - filled))
}

/// Prints the per-step summary of a grade.
pub fn print_steps(grade: &Grade) {
    for step in StepName::ALL {
        let (passed, total) = step_counts(grade, step);
        let mark = if passed == total {
            Paint::Good.paint("✓ done")
        } else {
            Paint::Bad.paint(&format!("{} to go", total - passed))
        };
        println!(
            "  {:<12} {} {passed:>2}/{total:<2} {mark}",
            step.as_str(),
            bar(passed, total, 10)
        );
    }
}

/// Prints the full report of a grade: steps, then the first failing case
/// and what to do, or that the exercise is complete.
pub fn print_report(exercise: &Exercise, grade: &Grade, took: Duration) {
    let manifest = &grade.manifest;
    term::status(
        "Graded",
        &format!(
            "{} ({}): {}/{} points in {:.1}s",
            exercise.name(),
            manifest.title,
            grade.points(),
            manifest.total_points(),
            took.as_secs_f64()
        ),
    );
    print_steps(grade);
    let Some((case, outcome)) = grade
        .outcomes
        .iter()
        .find(|(_, outcome)| !outcome.status.is_pass())
    else {
        println!(
            "\n{}",
            Paint::Good.paint(&format!("`{}` is complete.", exercise.name()))
        );
        return;
    };
    print_failure(grade, case, outcome);
    if let Some(step) = manifest.step(case.step) {
        println!("\n{} {}", Paint::Bold.paint("Next:"), step.goal);
    }
    println!(
        "      Edit {}/src. Hint: `cargo xsafe hint {}` (or h while watching).",
        exercise.dir.display(),
        exercise.name()
    );
}

fn print_failure(grade: &Grade, case: &Case, outcome: &CaseOutcome) {
    let kind = match case.expect {
        Expect::Pass => "behaviour case",
        Expect::CompileFail => "compile-fail case",
        Expect::Surface => "public surface",
    };
    println!(
        "\n{} {} ({kind}, {} step)",
        Paint::Bad.paint("First failing case:"),
        Paint::Bold.paint(&case.name()),
        case.step
    );
    println!("  {}", case.proves(&grade.manifest));
    let what = match &outcome.status {
        Status::Passed => return,
        Status::Failed(reason) => format!("It failed: {reason}."),
        Status::NotRun(reason) => format!("It could not run: {reason}."),
        Status::Stopped(reason) => format!("It was stopped: {reason}."),
    };
    println!("  {what}");
    let shown: Vec<&str> = outcome.details.lines().collect();
    for line in shown.iter().take(SHOWN_LINES) {
        println!("    {}", Paint::Dim.paint(line));
    }
    if shown.len() > SHOWN_LINES {
        println!(
            "    {}",
            Paint::Dim.paint(&format!(
                "... {} more lines: `cargo xsafe check {}` shows everything",
                shown.len() - SHOWN_LINES,
                grade.manifest.exercise
            ))
        );
    }
}
