//! Where the learner is, without grading.
//!
//! * An exercise whose learner files are the starter's (the git blob ids
//!   that the manifest's `[starter]` table records) is **not started**.
//! * Every grade is recorded in a cache, `target/xsafe/progress.json`,
//!   under a key made of the learner files' content, the exercise's
//!   grading files and the toolchain: while none of them changes, the
//!   recorded points stand, and an exercise with full points is **done**.
//! * Any other exercise is **in progress** (with its points when a grade
//!   of its current files is recorded).
//!
//! The tool's own state (the current exercise, the hints seen per step)
//! is in `target/xsafe/state.json`. Both files are safe to delete: the
//! current exercise becomes the first one not done, the hints start again,
//! and exercises are graded again as they are met.

use crate::course::{Course, CourseDirs, Exercise, slashed};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use xsafe_grade::{StepName, git_blob_id};
use xsafe_report::ExerciseReport;

/// Where an exercise stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The learner files are the starter's.
    NotStarted,
    /// Changed, and not (known to be) complete.
    InProgress,
    /// A grade of the current files has full points.
    Done,
}

impl Stage {
    /// `not started`, `in progress` or `done`.
    pub fn word(self) -> &'static str {
        match self {
            Stage::NotStarted => "not started",
            Stage::InProgress => "in progress",
            Stage::Done => "done",
        }
    }
}

/// What a grade of some content found, as the cache keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recorded {
    /// The key of the graded content (see [`content_key`]).
    pub key: String,
    /// Points earned.
    pub points: u32,
    /// Points available.
    pub max_points: u32,
    /// Whether the crate compiled.
    pub compiles: bool,
    /// The step of the first case that did not pass.
    pub step: Option<String>,
}

impl Recorded {
    /// What to record of a report.
    pub fn of(key: String, report: &ExerciseReport) -> Recorded {
        Recorded {
            key,
            points: report.points,
            max_points: report.max_points,
            compiles: report.compiles(),
            step: report.first_failing().map(|case| case.step.clone()),
        }
    }

    /// Whether it had full points.
    pub fn complete(&self) -> bool {
        self.compiles && self.points == self.max_points
    }
}

/// The tool's state file.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct State {
    /// The exercise the learner works on (`continue here` in the list).
    #[serde(default)]
    pub current: Option<String>,
    /// Per exercise, per step: how many of the step's hints were shown.
    #[serde(default)]
    pub hints: BTreeMap<String, BTreeMap<String, usize>>,
    /// Per exercise: the last grade recorded.
    #[serde(default)]
    pub grades: BTreeMap<String, Recorded>,
}

fn state_file(course: &Course) -> PathBuf {
    course.work_dir().join("state.json")
}

impl State {
    /// The state, or an empty one when the file is missing or unreadable.
    pub fn load(course: &Course) -> State {
        std::fs::read_to_string(state_file(course))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default()
    }

    /// Writes the state. Losing it costs only a re-grade and the hint
    /// counts, so a failure is ignored.
    pub fn save(&self, course: &Course) {
        let path = state_file(course);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        if let Ok(text) = serde_json::to_string_pretty(self) {
            let temporary = path.with_extension("json.new");
            if std::fs::write(&temporary, text).is_ok() {
                let _ = std::fs::rename(&temporary, &path);
            }
        }
    }

    /// Loads the state, changes it and saves it at once: another `cargo
    /// xsafe` (a `hint` in a second terminal) may have written it since.
    pub fn update<T>(course: &Course, change: impl FnOnce(&mut State) -> T) -> T {
        // The grading thread records grades while keys change hints: one
        // change at a time in this process.
        static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
        let _turn = ONE_AT_A_TIME
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut state = State::load(course);
        let result = change(&mut state);
        state.save(course);
        result
    }

    /// Records a grade of `exercise`'s content `key`.
    pub fn record(&mut self, exercise: &Exercise, key: String, report: &ExerciseReport) {
        self.grades
            .insert(exercise.name().to_owned(), Recorded::of(key, report));
    }

    /// The recorded grade of `exercise`, if it graded the content `key`.
    pub fn recorded(&self, exercise: &Exercise, key: &str) -> Option<&Recorded> {
        self.grades
            .get(exercise.name())
            .filter(|recorded| recorded.key == key)
    }
}

/// The learner files of `exercise` that exist, as (path relative to the
/// exercise, git blob id), sorted. Editor leftovers (hidden files, `~`
/// backups) are not learner files.
pub fn learner_blobs(exercise: &Exercise) -> BTreeMap<PathBuf, String> {
    let mut blobs = BTreeMap::new();
    for root in &exercise.manifest.learner_files {
        let walk = walkdir::WalkDir::new(exercise.dir.join(root))
            .into_iter()
            .filter_entry(|entry| !entry.file_name().to_string_lossy().starts_with('.'))
            .filter_map(Result::ok);
        for entry in walk {
            let name = entry.file_name().to_string_lossy();
            if !entry.file_type().is_file() || name.ends_with('~') {
                continue;
            }
            let (Ok(relative), Ok(content)) = (
                entry.path().strip_prefix(&exercise.dir),
                std::fs::read(entry.path()),
            ) else {
                continue;
            };
            blobs.insert(PathBuf::from(slashed(relative)), git_blob_id(&content));
        }
    }
    blobs
}

/// Whether the learner files are exactly the starter's.
pub fn is_starter(exercise: &Exercise, blobs: &BTreeMap<PathBuf, String>) -> bool {
    let starter = &exercise.manifest.starter;
    !starter.is_empty()
        && starter.len() == blobs.len()
        && starter
            .iter()
            .all(|(file, blob)| blobs.get(&PathBuf::from(slashed(file))) == Some(blob))
}

/// The key of what a grade of `exercise` depends on: the learner files,
/// the exercise's grading files (cases, manifest) and the toolchain.
pub fn content_key(
    exercise: &Exercise,
    blobs: &BTreeMap<PathBuf, String>,
    toolchain: &str,
) -> String {
    let mut text = format!("toolchain {toolchain}\n");
    for (file, blob) in blobs {
        text.push_str(&format!("learner {} {blob}\n", slashed(file)));
    }
    let grading = exercise.manifest.dir.clone();
    let walk = walkdir::WalkDir::new(&grading)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok);
    for entry in walk.filter(|entry| entry.file_type().is_file()) {
        if let (Ok(relative), Ok(content)) = (
            entry.path().strip_prefix(&grading),
            std::fs::read(entry.path()),
        ) {
            text.push_str(&format!(
                "grading {} {}\n",
                slashed(relative),
                git_blob_id(&content)
            ));
        }
    }
    git_blob_id(text.as_bytes())
}

/// `rustc --version` as the course's folder resolves it (its
/// `rust-toolchain.toml`, or `RUSTUP_TOOLCHAIN`): part of every cache key.
pub fn toolchain(root: &Path) -> String {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    std::process::Command::new(rustc)
        .arg("--version")
        .current_dir(root)
        .stdin(std::process::Stdio::null())
        .output()
        .ok()
        .filter(|output| output.status.success())
        .map(|output| String::from_utf8_lossy(&output.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// One exercise's standing, without grading.
#[derive(Debug, Clone)]
pub struct Standing {
    /// Where it stands.
    pub stage: Stage,
    /// The recorded grade of that content, if any.
    pub recorded: Option<Recorded>,
}

impl Standing {
    /// Points earned, when known.
    pub fn points(&self) -> Option<u32> {
        self.recorded.as_ref().map(|recorded| recorded.points)
    }
}

/// Where `exercise` stands, from its files and the cache.
pub fn standing(state: &State, exercise: &Exercise, toolchain: &str) -> Standing {
    let blobs = learner_blobs(exercise);
    let key = content_key(exercise, &blobs, toolchain);
    let recorded = state.recorded(exercise, &key).cloned();
    let stage = if recorded.as_ref().is_some_and(Recorded::complete) {
        Stage::Done
    } else if is_starter(exercise, &blobs) {
        Stage::NotStarted
    } else {
        Stage::InProgress
    };
    Standing { stage, recorded }
}

/// Every exercise's standing, in course order.
pub fn standings(course: &Course, state: &State, toolchain: &str) -> Vec<Standing> {
    course
        .exercises
        .iter()
        .map(|exercise| standing(state, exercise, toolchain))
        .collect()
}

/// The current exercise: the one chosen in the state if it still exists,
/// else the first one not done (the first one when all are done).
pub fn current(course: &Course, state: &State, standings: &[Standing]) -> usize {
    if let Some(name) = &state.current
        && let Some(index) = course.exercises.iter().position(|e| e.name() == name)
    {
        return index;
    }
    standings
        .iter()
        .position(|standing| standing.stage != Stage::Done)
        .unwrap_or(0)
}

/// The next exercise after `index` that is not done, wrapping around;
/// `None` when every exercise is done.
pub fn next_pending(standings: &[Standing], index: usize) -> Option<usize> {
    let count = standings.len();
    (1..=count)
        .map(|offset| (index + offset) % count)
        .find(|&candidate| standings[candidate].stage != Stage::Done)
}

/// The step to work on when no grade says which: the recorded one, else
/// the first step with a case the starter does not already pass.
pub fn step_without_grade(exercise: &Exercise, standing: &Standing) -> StepName {
    if let Some(step) = standing
        .recorded
        .as_ref()
        .and_then(|recorded| recorded.step.as_deref())
        .and_then(StepName::parse)
    {
        return step;
    }
    StepName::ALL
        .into_iter()
        .find(|&step| exercise.manifest.cases_of(step).any(|case| !case.given))
        .unwrap_or(StepName::Definition)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn standing(stage: Stage) -> Standing {
        Standing {
            stage,
            recorded: None,
        }
    }

    /// The next exercise not done comes after the current one, wrapping
    /// around; none when all are done.
    #[test]
    fn next_pending_wraps_around() {
        let standings = [
            standing(Stage::InProgress),
            standing(Stage::Done),
            standing(Stage::NotStarted),
        ];
        assert_eq!(next_pending(&standings, 0), Some(2));
        assert_eq!(next_pending(&standings, 2), Some(0));
        let done = [standing(Stage::Done), standing(Stage::Done)];
        assert_eq!(next_pending(&done, 0), None);
    }

    /// A grade is complete only with full points of a crate that compiles.
    #[test]
    fn complete_needs_full_points() {
        let recorded = Recorded {
            key: String::new(),
            points: 3,
            max_points: 3,
            compiles: true,
            step: None,
        };
        assert!(recorded.complete());
        assert!(
            !Recorded {
                points: 2,
                ..recorded.clone()
            }
            .complete()
        );
        assert!(
            !Recorded {
                compiles: false,
                ..recorded
            }
            .complete()
        );
    }
}
