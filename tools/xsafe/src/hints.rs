//! Hints, one at a time. How many of an exercise's hints the learner has
//! seen is kept in `target/xsafe/hints.json`: safe to delete (the hints then
//! start again from the first).

use crate::course::{Course, CourseDirs, Exercise};
use std::collections::BTreeMap;
use std::path::PathBuf;

fn state_file(course: &Course) -> PathBuf {
    course.work_dir().join("hints.json")
}

fn load(course: &Course) -> BTreeMap<String, usize> {
    std::fs::read_to_string(state_file(course))
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default()
}

/// The next hint of `exercise` as (number, total, step, text), and records
/// that it was shown. After the last hint, the last one is shown again.
pub fn next(course: &Course, exercise: &Exercise) -> Option<(usize, usize, String, String)> {
    let hints: Vec<(String, String)> = exercise
        .manifest
        .steps
        .iter()
        .flat_map(|step| {
            step.hints
                .iter()
                .map(move |hint| (step.name.as_str().to_owned(), hint.clone()))
        })
        .collect();
    if hints.is_empty() {
        return None;
    }
    let mut seen = load(course);
    let shown = seen.entry(exercise.name().to_owned()).or_insert(0);
    let index = (*shown).min(hints.len() - 1);
    *shown = index + 1;
    let path = state_file(course);
    if let Some(parent) = path.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Ok(text) = serde_json::to_string_pretty(&seen) {
        // Losing the count only means a hint may be shown twice.
        let _ = std::fs::write(&path, text);
    }
    let (step, text) = hints[index].clone();
    Some((index + 1, hints.len(), step, text))
}
