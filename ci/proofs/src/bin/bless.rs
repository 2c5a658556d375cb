//! Re-records the `.stderr` snapshots of the compile-fail cases from the
//! reference solutions, for instance after moving to a new toolchain:
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin bless [EXERCISE...]
//! ```
//!
//! It grades each solution in a sandbox with `TRYBUILD=overwrite`, copies the
//! snapshots trybuild wrote back into `exercises/NAME/grading/cases/`, and
//! prints which ones changed. Review the diff, then run the proofs again: the
//! alternative solutions must still score full marks against the new
//! snapshots.

use std::process::ExitCode;
use xsafe_grade::Expect;
use xsafe_grading_proofs::{Submission, exercises, grade};

fn main() -> ExitCode {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    // SAFETY: single-threaded at this point; the variable is read by the
    // child `cargo test` processes that `grade` starts.
    unsafe { std::env::set_var("TRYBUILD", "overwrite") };
    let mut changed = 0;
    for exercise in exercises() {
        if !wanted.is_empty() && !wanted.contains(&exercise.name) {
            continue;
        }
        eprintln!("    Blessing {} from its solution", exercise.name);
        let grade = grade(&exercise, Submission::Solution);
        for (case, _) in &grade.outcomes {
            if case.expect != Expect::CompileFail {
                continue;
            }
            let written = grade.manifest.case_path(case).with_extension("stderr");
            let relative = written
                .strip_prefix(grade.manifest.dir.parent().unwrap_or(&grade.manifest.dir))
                .unwrap_or(&written);
            let kept = exercise.starter.join(relative);
            let new = match std::fs::read_to_string(&written) {
                Ok(text) => text,
                Err(err) => {
                    eprintln!("error: no snapshot for {}: {err}", case.name());
                    return ExitCode::FAILURE;
                }
            };
            if std::fs::read_to_string(&kept).ok().as_deref() != Some(new.as_str()) {
                if let Err(err) = std::fs::write(&kept, &new) {
                    eprintln!("error: cannot write {}: {err}", kept.display());
                    return ExitCode::FAILURE;
                }
                eprintln!("     Updated {}", kept.display());
                changed += 1;
            }
        }
    }
    eprintln!("    Finished {changed} snapshot(s) changed");
    ExitCode::SUCCESS
}
