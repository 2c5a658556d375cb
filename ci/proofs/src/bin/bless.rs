//! Re-records the `.stderr` snapshots of the compile-fail cases from the
//! reference solutions, for instance after moving to a new toolchain:
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin bless [EXERCISE...]
//! ```
//!
//! It grades each solution in a sandbox with `TRYBUILD=overwrite`, copies the
//! snapshots trybuild wrote back into `exercises/NAME/grading/cases/`, and
//! prints which ones changed. It also rewrites the `[starter]` table of each
//! manifest: the git blob ids of the starter's learner files, from which
//! `cargo xsafe reset` restores them. Review the diff, then run the proofs again: the
//! alternative solutions must still score full marks against the new
//! snapshots.

use std::path::Path;
use std::process::ExitCode;
use toml_edit::{DocumentMut, Item, Table};
use xsafe_grade::{Expect, Manifest};
use xsafe_grading_proofs::{Submission, exercises, grade, starter_snapshot};

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
        match record_starter(&exercise.starter) {
            Ok(true) => {
                eprintln!("     Updated the [starter] table of {}", exercise.name);
                changed += 1;
            }
            Ok(false) => {}
            Err(err) => {
                eprintln!("error: {err}");
                return ExitCode::FAILURE;
            }
        }
    }
    eprintln!("    Finished {changed} file(s) changed");
    ExitCode::SUCCESS
}

/// Writes the `[starter]` table of an exercise's manifest; `true` if it changed.
fn record_starter(exercise_dir: &Path) -> Result<bool, String> {
    let path = exercise_dir.join("grading/manifest.toml");
    let manifest = Manifest::load(&exercise_dir.join("grading")).map_err(|err| err.to_string())?;
    let snapshot = starter_snapshot(exercise_dir, &manifest.learner_files);
    if snapshot == manifest.starter {
        return Ok(false);
    }
    let text =
        std::fs::read_to_string(&path).map_err(|err| format!("{}: {err}", path.display()))?;
    let mut doc: DocumentMut = text
        .parse()
        .map_err(|err| format!("{}: {err}", path.display()))?;
    let mut table = Table::new();
    table.decor_mut().set_prefix(
        "\n# Written by `bless`: the git blob id of each learner file of the starter,\n\
         # from which `cargo xsafe reset` restores it.\n",
    );
    for (file, blob) in &snapshot {
        table.insert(&file.to_string_lossy(), toml_edit::value(blob.as_str()));
    }
    doc.insert("starter", Item::Table(table));
    std::fs::write(&path, doc.to_string()).map_err(|err| format!("{}: {err}", path.display()))?;
    Ok(true)
}
