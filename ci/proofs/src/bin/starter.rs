//! Writes the `[starter]` table of each exercise's manifest: the git blob
//! id of every learner file of the starter, from which `cargo xsafe reset`
//! restores it, whatever the learner committed since.
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin starter [EXERCISE...]
//! ```
//!
//! The test `starter_snapshot_is_current` fails until the tables match the
//! starters.

use std::path::Path;
use std::process::ExitCode;
use toml_edit::{DocumentMut, Item, Table};
use xsafe_grade::Manifest;
use xsafe_grading_proofs::{exercises, starter_snapshot};

fn main() -> ExitCode {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let mut changed = 0;
    for exercise in exercises() {
        if !wanted.is_empty() && !wanted.contains(&exercise.name) {
            continue;
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
    eprintln!("    Finished {changed} manifest(s) changed");
    ExitCode::SUCCESS
}

/// Writes the `[starter]` table of an exercise's manifest; `true` if it
/// changed.
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
        "\n# Written by `cargo run -p xsafe-grading-proofs --bin starter`: the git\n# blob id of each learner file of the starter, from which `cargo xsafe reset`\n# restores it.\n",
    );
    for (file, blob) in &snapshot {
        table.insert(&file.to_string_lossy(), toml_edit::value(blob.as_str()));
    }
    doc.insert("starter", Item::Table(table));
    std::fs::write(&path, doc.to_string()).map_err(|err| format!("{}: {err}", path.display()))?;
    Ok(true)
}
