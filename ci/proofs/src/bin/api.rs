//! Writes each exercise's API (the `[surface] api` list of its manifest)
//! from the public surface of its reference solution:
//!
//! ```text
//! cargo run -p xsafe-grading-proofs --bin api [EXERCISE...]
//! ```
//!
//! Review the diff: an item that appears is one the solution made public,
//! and so one every learner may make public too. The proof
//! `solutions_score_full_marks` fails until the lists match the solutions.

use std::process::ExitCode;
use toml_edit::{Array, DocumentMut, Item, Table, value};
use xsafe_grading_proofs::{Submission, exercises, grade_submission};

fn main() -> ExitCode {
    let wanted: Vec<String> = std::env::args().skip(1).collect();
    let mut changed = 0;
    for exercise in exercises() {
        if !wanted.is_empty() && !wanted.contains(&exercise.name) {
            continue;
        }
        let grade = grade_submission(&exercise, Submission::Solution, &None);
        let Some(items) = grade.surface else {
            eprintln!(
                "error: the surface of {} could not be read (does its manifest have a surface case, and does the solution compile?)",
                exercise.name
            );
            return ExitCode::FAILURE;
        };
        let path = exercise.starter.join("grading/manifest.toml");
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(err) => {
                eprintln!("error: {}: {err}", path.display());
                return ExitCode::FAILURE;
            }
        };
        let mut doc: DocumentMut = match text.parse() {
            Ok(doc) => doc,
            Err(err) => {
                eprintln!("error: {}: {err}", path.display());
                return ExitCode::FAILURE;
            }
        };
        let mut api = Array::new();
        for item in &items {
            api.push_formatted(toml_edit::Value::from(item.as_str()).decorated("\n    ", ""));
        }
        api.set_trailing("\n");
        api.set_trailing_comma(true);
        if !doc.contains_key("surface") {
            let mut table = Table::new();
            table.decor_mut().set_prefix(
                "\n# The exercise's API: the public items of the reference solution, written\n# by `cargo run -p xsafe-grading-proofs --bin api`. `allow` lists what else a\n# solution may make public, each with the case that probes it.\n",
            );
            doc.insert("surface", Item::Table(table));
        }
        let current: Vec<&str> = doc["surface"]
            .get("api")
            .and_then(Item::as_array)
            .map(|array| array.iter().filter_map(|item| item.as_str()).collect())
            .unwrap_or_default();
        let unchanged = current.iter().copied().eq(items.iter().map(String::as_str));
        doc["surface"]["api"] = value(api);
        if !unchanged {
            if let Err(err) = std::fs::write(&path, doc.to_string()) {
                eprintln!("error: {}: {err}", path.display());
                return ExitCode::FAILURE;
            }
            eprintln!("     Updated the API of {}", exercise.name);
            changed += 1;
        }
    }
    eprintln!("    Finished {changed} manifest(s) changed");
    ExitCode::SUCCESS
}
